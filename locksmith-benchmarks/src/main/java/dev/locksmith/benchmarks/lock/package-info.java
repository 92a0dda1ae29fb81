/**
 * The lock libraries under test, each behind the same small {@link dev.locksmith.benchmarks.lock.BenchLock} interface, and
 * the read/write locks and permits of those that have them behind {@link dev.locksmith.benchmarks.lock.SharedLock}.
 */
@NullMarked
package dev.locksmith.benchmarks.lock;

import org.jspecify.annotations.NullMarked;
