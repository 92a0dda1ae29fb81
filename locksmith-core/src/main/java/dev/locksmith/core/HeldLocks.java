package dev.locksmith.core;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The registry of locks this process holds. A lock leaves it when it is released or lost, and also
 * once its lease has ended: a lease that nobody renews or releases is neither listed nor kept. Ended
 * leases are dropped whenever a lock is added or the registry is listed, earliest deadline first.
 */
final class HeldLocks {

	private final Map<DefaultLockHandle, Expiry> expiries = new ConcurrentHashMap<>();

	private final ConcurrentSkipListMap<Expiry, DefaultLockHandle> byDeadline = new ConcurrentSkipListMap<>(
			Comparator.comparingLong(Expiry::deadlineNanos).thenComparingLong(Expiry::sequence));

	private final AtomicLong sequence = new AtomicLong();

	void add(DefaultLockHandle handle) {
		dropEnded();
		Expiry expiry = expiryOf(handle);
		this.expiries.put(handle, expiry);
		this.byDeadline.put(expiry, handle);
	}

	void remove(DefaultLockHandle handle) {
		Expiry expiry = this.expiries.remove(handle);
		if (expiry != null) {
			this.byDeadline.remove(expiry);
		}
	}

	/** What is held right now, one snapshot for each key. */
	List<LockInfo> list() {
		dropEnded();
		return this.expiries.keySet().stream().filter(DefaultLockHandle::leaseRuns).flatMap(DefaultLockHandle::toInfos)
			.toList();
	}

	/** How many handles the registry keeps. */
	int size() {
		return this.expiries.size();
	}

	/**
	 * Looks at each lock whose lease had ended when it was last seen: one renewed or extended since
	 * then is kept until its new deadline, the others leave.
	 */
	private void dropEnded() {
		long now = System.nanoTime();
		for (Map.Entry<Expiry, DefaultLockHandle> first = this.byDeadline.firstEntry(); first != null
				&& first.getKey().deadlineNanos() - now <= 0; first = this.byDeadline.firstEntry()) {
			Expiry ended = first.getKey();
			DefaultLockHandle handle = first.getValue();
			if (!this.byDeadline.remove(ended, handle)) {
				continue;
			}
			if (handle.leaseRuns()) {
				Expiry next = expiryOf(handle);
				if (this.expiries.replace(handle, ended, next)) {
					this.byDeadline.put(next, handle);
				}
			}
			else {
				this.expiries.remove(handle, ended);
			}
		}
	}

	private Expiry expiryOf(DefaultLockHandle handle) {
		return new Expiry(handle.leaseDeadlineNanos(), this.sequence.incrementAndGet());
	}

	/** A lease deadline on the monotonic clock, and a sequence number that tells equal deadlines apart. */
	private record Expiry(long deadlineNanos, long sequence) {
	}

}
