package dev.locksmith.core;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A lease the store granted, as this process counts it on its monotonic clock, erring short: it starts
 * when the request was sent (before the store set it), lasts the whole milliseconds the store was asked
 * for, and ends a drift allowance early, for the difference between this clock and the store's.
 *
 * @param sentAtNanos when the request that set this lease was sent
 * @param answeredAtNanos when its answer came
 * @param deadlineNanos when this process stops counting the lock as held
 * @param renewalDueNanos when a third of the lease has passed: time to renew it
 */
record Lease(long sentAtNanos, long answeredAtNanos, long deadlineNanos, long renewalDueNanos) {

	/** The lease of {@code ttl} set by a request sent at {@code sentAtNanos}. */
	static Lease of(long sentAtNanos, Duration ttl, Duration driftAllowance) {
		long ttlNanos = TimeUnit.MILLISECONDS.toNanos(ttl.toMillis());
		return new Lease(sentAtNanos, System.nanoTime(), sentAtNanos + ttlNanos - driftAllowance.toNanos(),
				sentAtNanos + ttlNanos / 3);
	}

	/**
	 * The lease the holder may count on of this one and {@code other}, both set for one lock. A request
	 * sent after the other's answer came was applied last by the store, so its lease counts. Two requests
	 * that crossed may have been applied in either order (by two connections, or a renewal and a caller's
	 * extension racing), so the shorter lease counts.
	 */
	Lease later(Lease other) {
		boolean crossed = other.sentAtNanos - this.answeredAtNanos < 0 && this.sentAtNanos - other.answeredAtNanos < 0;
		if (crossed) {
			return (other.deadlineNanos - this.deadlineNanos < 0) ? other : this;
		}
		return (other.sentAtNanos - this.sentAtNanos > 0) ? other : this;
	}

	/** This lease, renewed at {@code dueNanos} instead: after a renewal attempt that failed. */
	Lease renewingAt(long dueNanos) {
		return new Lease(this.sentAtNanos, this.answeredAtNanos, this.deadlineNanos, dueNanos);
	}

	/** Whether the lease still runs at {@code nowNanos}. */
	boolean runsAt(long nowNanos) {
		return nowNanos - this.deadlineNanos < 0;
	}

}
