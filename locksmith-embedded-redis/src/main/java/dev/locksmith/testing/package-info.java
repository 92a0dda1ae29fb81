/**
 * Real {@code redis-server} processes on loopback ports, started and controlled from Java: for
 * Locksmith's tests and for the sample app when no Redis is configured.
 */
@NullMarked
package dev.locksmith.testing;

import org.jspecify.annotations.NullMarked;
