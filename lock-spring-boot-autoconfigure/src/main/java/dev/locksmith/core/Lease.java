package dev.locksmith.core;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;

/**
 * A lease the store granted, as this process counts it on its monotonic clock, erring short: it starts
 * when the request was sent (before the store set it), lasts the whole milliseconds the store was asked
 * for, and ends a drift allowance early, for the difference between this clock and the store's.
 *
 * @param sentAtNanos when the request that set this lease was sent
 * @param deadlineNanos when this process stops counting the lock as held
 * @param renewalDueNanos when a third of the lease has passed: time to renew it
 * @param expiresAt the deadline on the wall clock, for people
 */
record Lease(long sentAtNanos, long deadlineNanos, long renewalDueNanos, Instant expiresAt) {

	/** The lease of {@code ttl} set by a request sent at {@code sentAtNanos}. */
	static Lease of(long sentAtNanos, Duration ttl, Duration driftAllowance) {
		long ttlNanos = TimeUnit.MILLISECONDS.toNanos(ttl.toMillis());
		long deadline = sentAtNanos + ttlNanos - driftAllowance.toNanos();
		return new Lease(sentAtNanos, deadline, sentAtNanos + ttlNanos / 3,
				Instant.now().plusNanos(deadline - System.nanoTime()));
	}

	/**
	 * The lease that the store keeps of this one and {@code other}: the one set by the later request, since
	 * the store applies requests for one lock in the order they were sent.
	 */
	Lease later(Lease other) {
		return (other.sentAtNanos - this.sentAtNanos > 0) ? other : this;
	}

	/** Whether the lease still runs at {@code nowNanos}. */
	boolean runsAt(long nowNanos) {
		return nowNanos - this.deadlineNanos < 0;
	}

}
