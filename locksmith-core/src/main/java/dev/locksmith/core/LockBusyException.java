package dev.locksmith.core;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * Another owner held the lock for the whole wait; says which lock, and when trying again has a chance.
 *
 * @since 0.1.0
 */
public class LockBusyException extends DistributedLockException {

	private final @Nullable String lockName;

	private final String key;

	private final Duration waited;

	private final Duration retryAfter;

	/** A busy lock of no particular name, with no hint for when to retry. */
	public LockBusyException(String key, Duration waited) {
		this(null, key, waited, Duration.ZERO);
	}

	/**
	 * A busy lock with the store's hint for when to retry.
	 * @param lockName the name of the lock, or {@code null} when it has none
	 * @param key the key of the busy lock
	 * @param waited how long the caller waited, measured
	 * @param retryAfter when a retry has a chance: the busy lease's remaining time as the store reported
	 * it, or less when recent holds of the lock ended sooner; zero when unknown
	 * @since 0.1.0
	 */
	public LockBusyException(@Nullable String lockName, String key, Duration waited, Duration retryAfter) {
		super("Lock '" + KeyMasking.mask(lockName, key) + "' is held by another owner (waited " + waited.toMillis()
				+ "ms)");
		this.lockName = lockName;
		this.key = key;
		this.waited = waited;
		this.retryAfter = retryAfter;
	}

	/**
	 * The name of the busy lock, such as the one of {@code @DistributedLock}, or {@code null} when it has none.
	 * @since 0.1.0
	 */
	public @Nullable String getLockName() {
		return this.lockName;
	}

	/** The key of the busy lock; the message shows it {@linkplain KeyMasking masked}. */
	public String getKey() {
		return this.key;
	}

	/**
	 * How long the caller waited before giving up, on the monotonic clock: the wait time and the last
	 * store call, or the store call alone for a zero wait.
	 */
	public Duration getWaited() {
		return this.waited;
	}

	/**
	 * When a retry has a chance: the busy lease's remaining time when the store last refused, or, when
	 * shorter, the longest of this process's recent holds of a lock of the same name (the last eight),
	 * since a renewed lease stays nearly a whole ttl ahead however soon the holder's work ends. An
	 * estimate, not a promise: the holder may keep the lock longer than holds before it, never longer than
	 * its lease unless it renews. Zero when the store gave no hint.
	 * @since 0.1.0
	 */
	public Duration getRetryAfter() {
		return this.retryAfter;
	}

}
