package dev.locksmith.core;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * The registry of locks this process holds. A lock leaves it when it is released or lost, and also
 * once its lease has ended: a lease that nobody renews or releases is neither listed nor kept. Ended
 * leases are dropped whenever the registry is listed, and by a sweep each time as many locks were added
 * as it held at the last sweep (and at least {@value #MIN_ADDS_PER_SWEEP}): adding a lock costs a
 * constant time on average, and the registry keeps one small entry per lock, not a deadline index. The
 * locks acquired to be renewed are kept apart, and the watchdog renews the leases it finds among them.
 */
final class HeldLocks {

	/** The fewest additions between two sweeps, so that a registry of few locks is not swept at each. */
	static final int MIN_ADDS_PER_SWEEP = 1024;

	private final Set<DefaultLockHandle> renewed = ConcurrentHashMap.newKeySet();

	private final Set<DefaultLockHandle> unrenewed = ConcurrentHashMap.newKeySet();

	private final AtomicInteger addsUntilSweep = new AtomicInteger(MIN_ADDS_PER_SWEEP);

	/**
	 * Adds a lock just granted. A sweep due now runs first: a failure in it (a listener told of a loss it
	 * found) leaves the new lock out, so that nothing renews a lock whose acquisition failed.
	 */
	void add(DefaultLockHandle handle) {
		if (this.addsUntilSweep.decrementAndGet() == 0) {
			try {
				dropEnded();
			}
			finally {
				this.addsUntilSweep.set(Math.max(MIN_ADDS_PER_SWEEP, size()));
			}
		}
		setOf(handle).add(handle);
	}

	void remove(DefaultLockHandle handle) {
		setOf(handle).remove(handle);
	}

	/** What is held right now, one snapshot for each key. */
	List<LockInfo> list() {
		dropEnded();
		return Stream.concat(this.renewed.stream(), this.unrenewed.stream())
			.filter(DefaultLockHandle::leaseRuns)
			.flatMap(DefaultLockHandle::toInfos)
			.toList();
	}

	/** The locks kept that were acquired to be renewed, a lease that ended but was not swept yet included. */
	Stream<DefaultLockHandle> renewed() {
		return this.renewed.stream();
	}

	/** How many handles the registry keeps. */
	int size() {
		return this.renewed.size() + this.unrenewed.size();
	}

	private Set<DefaultLockHandle> setOf(DefaultLockHandle handle) {
		return handle.renew() ? this.renewed : this.unrenewed;
	}

	/**
	 * Drops each lock released, lost or whose lease has ended, reporting a lease it finds ended as lost
	 * ({@link DefaultLockHandle#isHeld()}): a lock the registry no longer lists is never still counted as
	 * held. One renewed or extended in time stays.
	 */
	private void dropEnded() {
		this.renewed.removeIf((handle) -> !handle.isHeld());
		this.unrenewed.removeIf((handle) -> !handle.isHeld());
	}

}
