package dev.locksmith.core;

import java.util.List;

/**
 * A lock that a running call holds, as a thread's calls ({@link LockedCalls#held()}) and a Reactor context
 * ({@link ReactiveLockFrames}) carry it: a nested call finds here the keys it may hold again without a round
 * trip.
 *
 * @param owner the lock service that granted the lock, compared by identity: a nested call through another
 * one never reuses it
 * @param handle the call's hold on the lock
 * @param keys the keys that the handle holds
 * @param share the share the handle holds
 */
public record HeldLock(Object owner, LockHandle handle, List<String> keys, LockShare share) {

	public HeldLock {
		keys = List.copyOf(keys);
	}

	/** Whether this lock was granted by {@code owner} and holds {@code key}. */
	public boolean holds(Object owner, String key) {
		return this.owner == owner && this.keys.contains(key);
	}

}
