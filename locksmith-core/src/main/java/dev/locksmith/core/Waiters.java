package dev.locksmith.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.jspecify.annotations.Nullable;

/**
 * This process's threads waiting for busy locks, by owner token and by key. The order among waiters
 * is kept by the store's queues; this registry only wakes the waiter a release handed a lock to, and
 * tells the others of that key when to look again should it never take it. A release that hands the
 * lock to nobody (a store without queues) wakes this process's longest waiter of the key. Built on
 * {@link Semaphore}: waiting is interruptible and never pins a virtual thread.
 */
final class Waiters {

	private final Map<String, Waiter> byOwnerToken = new ConcurrentHashMap<>();

	/** The waiters of each key, in lists that are replaced, never changed: a reader iterates a snapshot. */
	private final Map<String, List<Waiter>> byKey = new ConcurrentHashMap<>();

	private final AtomicLong arrivals = new AtomicLong();

	/** How many waiters and keys the registry keeps: 0 once nobody waits. */
	int size() {
		return this.byOwnerToken.size() + this.byKey.size();
	}

	/** Registers a waiter, before its first attempt, so that no hand-over to it goes unseen. */
	Waiter join(List<String> keys, String ownerToken) {
		Waiter waiter = new Waiter(keys, ownerToken, this.arrivals.incrementAndGet());
		this.byOwnerToken.put(ownerToken, waiter);
		for (String key : keys) {
			// Added inside compute, so that a leave() emptying and removing the list cannot orphan it.
			this.byKey.compute(key, (k, waiters) -> (waiters != null) ? with(waiters, waiter) : List.of(waiter));
		}
		return waiter;
	}

	void leave(Waiter waiter) {
		this.byOwnerToken.remove(waiter.ownerToken);
		for (String key : waiter.keys) {
			this.byKey.computeIfPresent(key, (k, waiters) -> without(waiters, waiter));
		}
	}

	/**
	 * A release handed {@code key} to {@code ownerToken}: wakes that waiter, with the lock when it waits
	 * for that key alone and a fencing token came with it, and has the others of the key look again when
	 * the claim lease ends, in case the new claimant never takes the lock. With no claim lease and no
	 * claimant here, the lock went to nobody: only the longest waiter looks, so that a release costs one
	 * attempt per process, not one per waiter. A hand-over told twice, by the release's answer in this
	 * process and by the store's notification, counts once.
	 */
	void handedOver(String key, String ownerToken, Duration claimLease, long fencingToken) {
		Waiter claimant = this.byOwnerToken.get(ownerToken);
		if (claimant != null && fencingToken > 0 && !claimant.firstTold(key + ':' + fencingToken)) {
			return;
		}
		if (claimant != null) {
			if (fencingToken > 0 && claimant.keys.equals(List.of(key))) {
				claimant.handed.set(new HandedLock(fencingToken, claimLease, System.nanoTime()));
			}
			claimant.wake();
		}
		List<Waiter> waiters = this.byKey.get(key);
		if (waiters != null && claimant == null && claimLease.isZero()) {
			waiters.stream().min(Comparator.comparingLong((waiter) -> waiter.arrival)).ifPresent(Waiter::wake);
		}
		else if (waiters != null) {
			long recheckAt = System.nanoTime() + claimLease.toNanos();
			for (Waiter waiter : waiters) {
				if (waiter != claimant) {
					waiter.recheckBy(recheckAt);
				}
			}
		}
	}

	private static List<Waiter> with(List<Waiter> waiters, Waiter joining) {
		List<Waiter> joined = new ArrayList<>(waiters.size() + 1);
		joined.addAll(waiters);
		joined.add(joining);
		return Collections.unmodifiableList(joined);
	}

	/** The waiters but {@code leaving}, or {@code null} when none is left (which removes the key). */
	private static @Nullable List<Waiter> without(List<Waiter> waiters, Waiter leaving) {
		if (waiters.size() == 1) {
			return (waiters.get(0) == leaving) ? null : waiters;
		}
		List<Waiter> left = new ArrayList<>(waiters);
		left.remove(leaving);
		return Collections.unmodifiableList(left);
	}

	/**
	 * A lock a release handed to a waiter for it alone: held under the claim lease, set after the
	 * waiter's last request was sent, with the fencing token issued for it; this process learnt of it
	 * at {@code toldAtNanos}.
	 */
	record HandedLock(long fencingToken, Duration claimLease, long toldAtNanos) {
	}

	/** One waiting thread. */
	static final class Waiter {

		private final List<String> keys;

		private final String ownerToken;

		private final AtomicReference<@Nullable HandedLock> handed = new AtomicReference<>();

		/** The hand-overs to this waiter told so far, as key and fencing token; made at the first. */
		private @Nullable Set<String> handOversSeen;

		private final long arrival;

		private final Semaphore signal = new Semaphore(0);

		private final AtomicLong recheckAtNanos = new AtomicLong(Long.MAX_VALUE);

		private volatile long sleepsUntilNanos = Long.MAX_VALUE;

		private volatile boolean woken;

		private Waiter(List<String> keys, String ownerToken, long arrival) {
			this.keys = keys;
			this.ownerToken = ownerToken;
			this.arrival = arrival;
		}

		/** Waits until woken, until an earlier re-check is asked for and due, or until {@code nanos} have passed. */
		void await(long nanos) throws InterruptedException {
			long until = System.nanoTime() + nanos;
			try {
				while (!this.woken) {
					long wakeAt = Math.min(until, this.recheckAtNanos.get());
					this.sleepsUntilNanos = wakeAt;
					long remaining = wakeAt - System.nanoTime();
					if (remaining <= 0) {
						return;
					}
					this.signal.tryAcquire(remaining, TimeUnit.NANOSECONDS);
				}
			}
			finally {
				this.sleepsUntilNanos = Long.MAX_VALUE;
				this.woken = false;
				this.recheckAtNanos.set(Long.MAX_VALUE);
			}
		}

		/** Whether {@code handOver} is told for the first time: by the release's answer or the store's notification. */
		private synchronized boolean firstTold(String handOver) {
			if (this.handOversSeen == null) {
				this.handOversSeen = new HashSet<>();
			}
			return this.handOversSeen.add(handOver);
		}

		/** The lock a release handed to this waiter since it last asked, taken once. */
		@Nullable HandedLock takeHandedLock() {
			return this.handed.getAndSet(null);
		}

		private void wake() {
			this.woken = true;
			this.signal.release();
		}

		/** Asks for a re-check by {@code atNanos}; the thread is only woken when it would sleep longer. */
		private void recheckBy(long atNanos) {
			this.recheckAtNanos.accumulateAndGet(atNanos, Math::min);
			if (atNanos - this.sleepsUntilNanos < 0) {
				this.signal.release();
			}
		}

	}

}
