/**
 * Auto-configuration of Locksmith's Micrometer counters.
 */
@NullMarked
package dev.locksmith.autoconfigure.metrics;

import org.jspecify.annotations.NullMarked;
