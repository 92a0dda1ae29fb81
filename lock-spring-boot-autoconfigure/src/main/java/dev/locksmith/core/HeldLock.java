package dev.locksmith.core;

import java.util.List;

/**
 * A lock that a running call holds, as {@link LockContext} and {@link ReactiveLockContext} carry it:
 * a nested call finds here the keys it may hold again without a round trip.
 *
 * @param owner the lock service that granted the lock; a nested call through another one never reuses it
 * @param handle the call's hold on the lock
 * @param keys the keys that the handle holds
 * @since 0.1.0
 */
public record HeldLock(LockService owner, LockHandle handle, List<String> keys) {

	public HeldLock {
		keys = List.copyOf(keys);
	}

	/** Whether this lock was granted by {@code owner} and holds {@code key}. */
	public boolean holds(LockService owner, String key) {
		return this.owner == owner && this.keys.contains(key);
	}

}
