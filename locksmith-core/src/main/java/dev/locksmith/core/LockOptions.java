package dev.locksmith.core;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import dev.locksmith.annotation.LockMode;

/**
 * How to take a lock: the lease, how long to wait while it is busy, whether to keep renewing the
 * lease while it is held, how long to keep the lock at least, the lock's name, and whether it is
 * exclusive, shared by readers, or one of a number of permits.
 * {@link LockService#options()} gives the application's configured defaults to start from.
 *
 * @param ttl lease length; the lock frees itself this long after the last grant or renewal
 * @param waitTime how long to wait while the lock is busy; zero tries once
 * @param renew whether to extend the lease every {@code ttl / 3} while the lock is held
 * @param holdAtLeast how long after the grant the lock stays taken even when it is released sooner;
 * zero releases at once; at most {@code ttl}
 * @param name what the lock protects, such as {@code "invoice"}: shown by the endpoint and used as the
 * metric and observation tag, so one of a small fixed set, never a per-call value; {@code null} when
 * unnamed
 * @param mode {@link LockMode#WRITE} (exclusive, the default) or {@link LockMode#READ} (shared by readers)
 * @param permits how many holders a {@code WRITE} lock admits at once, each with its own lease; 1 is an
 * exclusive lock; does not combine with {@code READ}
 * @since 0.1.0
 */
public record LockOptions(Duration ttl, Duration waitTime, boolean renew, Duration holdAtLeast,
		@Nullable String name, LockMode mode, int permits) {

	/** Validates every argument, naming the one that is wrong. */
	public LockOptions {
		if (ttl == null || ttl.toMillis() < 1) {
			throw new IllegalArgumentException("ttl must be at least 1ms, was " + ttl);
		}
		if (waitTime == null || waitTime.isNegative()) {
			throw new IllegalArgumentException("waitTime must not be negative, was " + waitTime);
		}
		if (holdAtLeast == null || holdAtLeast.isNegative()) {
			throw new IllegalArgumentException("holdAtLeast must not be negative, was " + holdAtLeast);
		}
		if (holdAtLeast.compareTo(ttl) > 0) {
			throw new IllegalArgumentException(
					"holdAtLeast must not exceed ttl, was " + holdAtLeast + " with a ttl of " + ttl);
		}
		if (name != null && name.isBlank()) {
			throw new IllegalArgumentException("name must not be blank; leave it null for an unnamed lock");
		}
		if (mode == null) {
			throw new IllegalArgumentException("mode must not be null");
		}
		if (permits < 1) {
			throw new IllegalArgumentException("permits must be at least 1, was " + permits);
		}
		if (mode == LockMode.READ && permits != 1) {
			throw new IllegalArgumentException("permits (" + permits + ") do not combine with mode READ: readers "
					+ "share the lock without a limit; use permits with mode WRITE");
		}
	}

	/** Options for an exclusive lock. */
	public LockOptions(Duration ttl, Duration waitTime, boolean renew, Duration holdAtLeast, @Nullable String name) {
		this(ttl, waitTime, renew, holdAtLeast, name, LockMode.WRITE, 1);
	}

	/** Options for an unnamed exclusive lock. */
	public LockOptions(Duration ttl, Duration waitTime, boolean renew, Duration holdAtLeast) {
		this(ttl, waitTime, renew, holdAtLeast, null);
	}

	/** The given lease, no waiting, renewed while held, released at once. */
	public static LockOptions ofTtl(Duration ttl) {
		return new LockOptions(ttl, Duration.ZERO, true, Duration.ZERO);
	}

	/** A copy with {@code ttl} as the lease. */
	public LockOptions withTtl(Duration ttl) {
		return new LockOptions(ttl, this.waitTime, this.renew, this.holdAtLeast, this.name, this.mode, this.permits);
	}

	/** A copy that waits up to {@code waitTime} while the lock is busy. */
	public LockOptions withWaitTime(Duration waitTime) {
		return new LockOptions(this.ttl, waitTime, this.renew, this.holdAtLeast, this.name, this.mode, this.permits);
	}

	/** A copy with renewal switched on or off. */
	public LockOptions withRenew(boolean renew) {
		return new LockOptions(this.ttl, this.waitTime, renew, this.holdAtLeast, this.name, this.mode, this.permits);
	}

	/**
	 * A copy that keeps the lock until at least {@code holdAtLeast} after the grant, even when it is
	 * released sooner: a job that ends quickly still keeps others that start it a little later from
	 * running it again.
	 */
	public LockOptions withHoldAtLeast(Duration holdAtLeast) {
		return new LockOptions(this.ttl, this.waitTime, this.renew, holdAtLeast, this.name, this.mode, this.permits);
	}

	/**
	 * A copy for the lock named {@code name}, such as {@code "invoice"} for the keys
	 * {@code "invoice-" + id}: the endpoint, metrics and observations show the name, never the key.
	 */
	public LockOptions withName(String name) {
		return new LockOptions(this.ttl, this.waitTime, this.renew, this.holdAtLeast, name, this.mode, this.permits);
	}

	/** A copy in {@code mode}: {@link LockMode#READ} shares the lock with other readers. */
	public LockOptions withMode(LockMode mode) {
		return new LockOptions(this.ttl, this.waitTime, this.renew, this.holdAtLeast, this.name, mode, this.permits);
	}

	/** A copy that admits up to {@code permits} holders at once, each with its own lease and renewal. */
	public LockOptions withPermits(int permits) {
		return new LockOptions(this.ttl, this.waitTime, this.renew, this.holdAtLeast, this.name, this.mode, permits);
	}

	/** Whether one holder at a time holds the lock: {@link LockMode#WRITE} with one permit. */
	public boolean exclusive() {
		return this.mode == LockMode.WRITE && this.permits == 1;
	}

}
