/**
 * A {@link java.util.concurrent.locks.Lock} view of a Locksmith lock, for code written against the JDK's
 * lock interface.
 */
@NullMarked
package dev.locksmith.adapters.lock;

import org.jspecify.annotations.NullMarked;
