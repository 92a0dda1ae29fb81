/**
 * A ShedLock {@code LockProvider} on Locksmith, so that {@code @SchedulerLock} methods keep their
 * annotations and lock through a {@link dev.locksmith.core.LockService}.
 */
@NullMarked
package dev.locksmith.adapters.shedlock;

import org.jspecify.annotations.NullMarked;
