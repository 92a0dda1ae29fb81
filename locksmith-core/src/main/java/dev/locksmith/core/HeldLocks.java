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
 * watchdog renews the leases it finds here.
 */
final class HeldLocks {

	/** The fewest additions between two sweeps, so that a registry of few locks is not swept at each. */
	static final int MIN_ADDS_PER_SWEEP = 1024;

	private final Set<DefaultLockHandle> handles = ConcurrentHashMap.newKeySet();

	private final AtomicInteger addsUntilSweep = new AtomicInteger(MIN_ADDS_PER_SWEEP);

	void add(DefaultLockHandle handle) {
		this.handles.add(handle);
		if (this.addsUntilSweep.decrementAndGet() == 0) {
			try {
				dropEnded();
			}
			finally {
				this.addsUntilSweep.set(Math.max(MIN_ADDS_PER_SWEEP, this.handles.size()));
			}
		}
	}

	void remove(DefaultLockHandle handle) {
		this.handles.remove(handle);
	}

	/** What is held right now, one snapshot for each key. */
	List<LockInfo> list() {
		dropEnded();
		return this.handles.stream().filter(DefaultLockHandle::leaseRuns).flatMap(DefaultLockHandle::toInfos).toList();
	}

	/** Every handle the registry keeps, a lease that ended but was not swept yet included. */
	Stream<DefaultLockHandle> stream() {
		return this.handles.stream();
	}

	/** How many handles the registry keeps. */
	int size() {
		return this.handles.size();
	}

	/**
	 * Drops each lock released, lost or whose lease has ended, reporting a lease it finds ended as lost
	 * ({@link DefaultLockHandle#isHeld()}): a lock the registry no longer lists is never still counted as
	 * held. One renewed or extended in time stays.
	 */
	private void dropEnded() {
		this.handles.removeIf((handle) -> !handle.isHeld());
	}

}
