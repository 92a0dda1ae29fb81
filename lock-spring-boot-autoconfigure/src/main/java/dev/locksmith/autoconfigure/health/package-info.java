/**
 * Auto-configuration of the {@code locks} health contributor.
 */
@NullMarked
package dev.locksmith.autoconfigure.health;

import org.jspecify.annotations.NullMarked;
