/**
 * The lock libraries under test, each behind the same small {@link dev.locksmith.benchmarks.lock.BenchLock} interface.
 */
@NullMarked
package dev.locksmith.benchmarks.lock;

import org.jspecify.annotations.NullMarked;
