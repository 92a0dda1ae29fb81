package dev.locksmith.core;

import java.time.Duration;

/**
 * How to take a lock: the lease, how long to wait while it is busy, and whether to keep renewing
 * the lease while it is held.
 *
 * @param ttl lease length; the lock frees itself this long after the last grant or renewal
 * @param waitTime how long to wait while the lock is busy; zero tries once
 * @param renew whether to extend the lease every {@code ttl / 3} while the lock is held
 * @since 0.1.0
 */
public record LockOptions(Duration ttl, Duration waitTime, boolean renew) {

	/** Lease used by {@link #defaults()}. */
	public static final Duration DEFAULT_TTL = Duration.ofSeconds(30);

	/** Validates every argument, naming the one that is wrong. */
	public LockOptions {
		if (ttl == null || ttl.toMillis() < 1) {
			throw new IllegalArgumentException("ttl must be at least 1ms, was " + ttl);
		}
		if (waitTime == null || waitTime.isNegative()) {
			throw new IllegalArgumentException("waitTime must not be negative, was " + waitTime);
		}
	}

	/** A 30 second lease, no waiting, renewed while held. */
	public static LockOptions defaults() {
		return ofTtl(DEFAULT_TTL);
	}

	/** The given lease, no waiting, renewed while held. */
	public static LockOptions ofTtl(Duration ttl) {
		return new LockOptions(ttl, Duration.ZERO, true);
	}

	/** A copy that waits up to {@code waitTime} while the lock is busy. */
	public LockOptions withWaitTime(Duration waitTime) {
		return new LockOptions(this.ttl, waitTime, this.renew);
	}

	/** A copy with renewal switched on or off. */
	public LockOptions withRenew(boolean renew) {
		return new LockOptions(this.ttl, this.waitTime, renew);
	}

}
