package dev.locksmith.core;

import java.time.Duration;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

import dev.locksmith.annotation.LockMode;

/**
 * How to take a lock: the lease, how long to wait while it is busy, whether to keep renewing the
 * lease while it is held, how long to keep the lock at least, the lock's name, and whether it is
 * exclusive, shared by readers, or one of a number of permits.
 * {@link LockService#options()} gives the application's configured defaults to start from; else
 * {@link #ofTtl(Duration)}, each {@code with...} method then giving a changed copy, the only way to build
 * one, so that a new option never breaks a caller.
 *
 * @since 0.1.0
 */
public final class LockOptions {

	private final Duration ttl;

	private final Duration waitTime;

	private final boolean renew;

	private final Duration holdAtLeast;

	private final @Nullable String name;

	private final LockMode mode;

	private final int permits;

	/** Validates every argument, naming the one that is wrong. */
	private LockOptions(Duration ttl, Duration waitTime, boolean renew, Duration holdAtLeast, @Nullable String name,
			LockMode mode, int permits) {
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
		this.ttl = ttl;
		this.waitTime = waitTime;
		this.renew = renew;
		this.holdAtLeast = holdAtLeast;
		this.name = name;
		this.mode = mode;
		this.permits = permits;
	}

	/** The given lease, no waiting, renewed while held, released at once. */
	public static LockOptions ofTtl(Duration ttl) {
		return new LockOptions(ttl, Duration.ZERO, true, Duration.ZERO, null, LockMode.WRITE, 1);
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

	/** The lease; the lock frees itself this long after the last grant or renewal. */
	public Duration ttl() {
		return this.ttl;
	}

	/** How long to wait while the lock is busy; zero tries once. */
	public Duration waitTime() {
		return this.waitTime;
	}

	/** Whether the lease is extended every {@code ttl / 3} while the lock is held. */
	public boolean renew() {
		return this.renew;
	}

	/** How long after the grant the lock stays taken even when released sooner; at most {@link #ttl()}. */
	public Duration holdAtLeast() {
		return this.holdAtLeast;
	}

	/**
	 * What the lock protects, such as {@code "invoice"}: shown by the endpoint and used as the metric and
	 * observation tag, so one of a small fixed set, never a per-call value; {@code null} when unnamed.
	 */
	public @Nullable String name() {
		return this.name;
	}

	/** {@link LockMode#WRITE} (exclusive, the default) or {@link LockMode#READ} (shared by readers). */
	public LockMode mode() {
		return this.mode;
	}

	/** How many holders a {@code WRITE} lock admits at once, each with its own lease; 1 is an exclusive lock. */
	public int permits() {
		return this.permits;
	}

	/** What one holder of a lock taken with these options holds of it. */
	public LockShare share() {
		return (this.mode == LockMode.READ) ? LockShare.READ : LockShare.permits(this.permits);
	}

	/** Whether one holder at a time holds the lock: {@link LockMode#WRITE} with one permit. */
	public boolean exclusive() {
		return this.mode == LockMode.WRITE && this.permits == 1;
	}

	@Override
	public boolean equals(@Nullable Object other) {
		return this == other || (other instanceof LockOptions that && this.ttl.equals(that.ttl)
				&& this.waitTime.equals(that.waitTime) && this.renew == that.renew
				&& this.holdAtLeast.equals(that.holdAtLeast) && Objects.equals(this.name, that.name)
				&& this.mode == that.mode && this.permits == that.permits);
	}

	@Override
	public int hashCode() {
		return Objects.hash(this.ttl, this.waitTime, this.renew, this.holdAtLeast, this.name, this.mode, this.permits);
	}

	@Override
	public String toString() {
		return "LockOptions[ttl=" + this.ttl + ", waitTime=" + this.waitTime + ", renew=" + this.renew
				+ ", holdAtLeast=" + this.holdAtLeast + ", name=" + this.name + ", mode=" + this.mode + ", permits="
				+ this.permits + "]";
	}

}
