package dev.locksmith.core;

import java.time.Duration;
import java.util.List;

/**
 * SPI of the store that keeps the locks: one method a round trip, no waiting, no local state.
 * Implementations throw {@link LockUnavailableException} when the store cannot be reached.
 *
 * @since 0.1.0
 */
public interface LockBackend {

	/** Sets the lock when it is free and issues the next fencing token of {@code key}, in one round trip. */
	AcquireResult tryAcquire(String key, String ownerToken, Duration ttl);

	/**
	 * Deletes the lock only when {@code ownerToken} still owns it and tells waiters that it is free.
	 * @return whether the lock was released
	 */
	boolean release(String key, String ownerToken);

	/**
	 * Extends every lease whose owner token still matches, in as few round trips as the store allows.
	 * @return for each lease, in order, whether it was extended
	 */
	List<Boolean> extend(List<LeaseExtension> leases);

	/**
	 * Outcome of one acquisition attempt.
	 *
	 * @param acquired whether the lock was granted
	 * @param fencingToken the fencing token of the grant, or 0 when not granted
	 * @param retryAfter when not granted: the lock's remaining lease, a hint for when to try again
	 */
	record AcquireResult(boolean acquired, long fencingToken, Duration retryAfter) {

		/** A grant carrying its fencing token. */
		public static AcquireResult granted(long fencingToken) {
			return new AcquireResult(true, fencingToken, Duration.ZERO);
		}

		/** A refusal because another owner holds the lock for {@code remainingTtl}. */
		public static AcquireResult busy(Duration remainingTtl) {
			return new AcquireResult(false, 0, remainingTtl);
		}

	}

	/**
	 * One lease to extend.
	 *
	 * @param key the lock key
	 * @param ownerToken the token the lock must still hold
	 * @param ttl the new lease, counted from now
	 */
	record LeaseExtension(String key, String ownerToken, Duration ttl) {
	}

}
