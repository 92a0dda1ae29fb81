package dev.locksmith.core;

import java.util.concurrent.Callable;

import dev.locksmith.core.internal.LockedCalls;

/**
 * {@link LockService#callLocked} for every lock service: runs an action under a lock that is this
 * thread's {@link LockContext} meanwhile. A nested locked call through the same service, programmatic or
 * annotated, holds the keys it shares with it again, as nested {@code @DistributedLock} calls do.
 */
final class LockedCall {

	/** Programmatic calls leave a store outage to their caller: they log nothing. */
	private static final LockedCalls calls = new LockedCalls();

	private LockedCall() {
	}

	/**
	 * Holds the lock of {@code key} from {@code locks}, runs {@code action} under it, and releases it. A
	 * programmatic call never skips, so it always runs the action.
	 */
	static <T> T call(LockService locks, String key, LockOptions options, Callable<T> action) {
		return calls.call(LockedCalls.Call.programmatic(locks, key, options), action);
	}

}
