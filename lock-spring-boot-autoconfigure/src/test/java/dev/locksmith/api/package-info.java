/**
 * Tests of the starter's public surface as a whole.
 */
@NullMarked
package dev.locksmith.api;

import org.jspecify.annotations.NullMarked;
