package dev.locksmith.core;

import java.time.Duration;
import java.time.Instant;

/**
 * One granted lock; closing it releases the lock.
 *
 * @since 0.1.0
 */
public interface LockHandle extends AutoCloseable {

	/** The key this lock was acquired for; for several keys acquired together, all of them joined by commas. */
	String key();

	/**
	 * Number that strictly increases with every grant of this key, for fencing writes; for several
	 * keys, the highest of their tokens.
	 */
	long fencingToken();

	/** When this process was granted the lock. */
	Instant acquiredAt();

	/** When the current lease ends unless it is extended. */
	Instant expiresAt();

	/** Whether this process still holds the lock: false once released, expired or lost. */
	boolean isHeld();

	/**
	 * Extends the lease to {@code ttl} from now, only if this process still owns the lock.
	 * @return whether the lease was extended
	 * @throws LockUnavailableException when the backend cannot be reached
	 */
	boolean extend(Duration ttl);

	/**
	 * Takes one more hold on this lock, without a round trip: the lock is released when this handle
	 * and every hold taken from it are closed. Hand a hold to work that may outlive the caller's
	 * scope, such as a task on another thread, and close it when that work ends.
	 * @return a handle for the new hold, on the same lock
	 * @throws LockLostException when the lease was lost
	 * @throws IllegalStateException when the lock was already released
	 */
	LockHandle hold();

	/**
	 * Ends this hold on the lock; the lock is released when its last hold ends. Idempotent, and never
	 * deletes a lock that another owner holds.
	 */
	@Override
	void close();

}
