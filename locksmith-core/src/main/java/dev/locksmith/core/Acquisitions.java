package dev.locksmith.core;

import java.time.Duration;
import java.util.List;

import org.jspecify.annotations.Nullable;

import dev.locksmith.core.LockStore.AcquireRequest;
import dev.locksmith.core.LockStore.AcquireResult;
import dev.locksmith.core.Waiters.HandedLock;
import dev.locksmith.core.Waiters.Waiter;

/**
 * Asks the store for locks and waits for them: a request that may not wait asks once; one that may
 * waits in the store's queues until a release hands the locks over or its wait ends, woken by release
 * notifications, with a bounded re-check for notifications that were lost.
 */
final class Acquisitions {

	/** The least claim lease left on which a waiter starts work without asking the store: a round trip and a tick. */
	private static final Duration MIN_CLAIM_MARGIN = Duration.ofMillis(100);

	private final StoreCalls store;

	private final Leases leases;

	private final Waiters waiters;

	private final @Nullable ReleaseNotifications releaseNotifications;

	private final Duration storeTimeout;

	private final Duration recheckInterval;

	Acquisitions(StoreCalls store, Leases leases, Waiters waiters, @Nullable ReleaseNotifications releaseNotifications,
			Duration storeTimeout, Duration recheckInterval) {
		this.store = store;
		this.leases = leases;
		this.waiters = waiters;
		this.releaseNotifications = releaseNotifications;
		this.storeTimeout = storeTimeout;
		this.recheckInterval = recheckInterval;
		if (releaseNotifications != null) {
			releaseNotifications.listen(this.waiters::handedOver);
		}
	}

	/** The locks of {@code request}, once asked or waited for as its options say, or the last retry hint. */
	Attempt acquire(LockRequest request) throws InterruptedException {
		Duration waitTime = request.options().waitTime();
		return waitTime.isZero() ? attempt(request, Duration.ZERO) : awaitTurn(request, waitTime);
	}

	/**
	 * Waits in the store's queues with one owner token until a release hands the locks over or the
	 * wait ends. The first refusal queues the caller and watches its keys; from then on a hand-over
	 * notification wakes it, and a bounded re-check covers lost notifications. A refusal carries the
	 * last retry hint.
	 */
	private Attempt awaitTurn(LockRequest request, Duration waitTime) throws InterruptedException {
		List<String> keys = request.keys();
		long deadline = System.nanoTime() + waitTime.toNanos();
		Waiter waiter = this.waiters.join(keys, request.owner().token());
		boolean watching = false;
		DefaultLockHandle handle = null;
		try {
			Attempt attempt = attempt(request, waitTime);
			handle = attempt.handle();
			if (handle != null) {
				return attempt;
			}
			watching = true;
			boolean askNow = watch(keys, deadline);
			while (handle == null) {
				long remaining = deadline - System.nanoTime();
				if (askNow && remaining > 0) {
					attempt = attempt(request, Duration.ofNanos(remaining));
					handle = attempt.handle();
					remaining = deadline - System.nanoTime();
					if (handle == null) {
						// A hand-over noticed before this refusal was answered is older than it: the store had taken it back.
						waiter.takeHandedLock();
					}
				}
				if (handle != null || remaining <= 0) {
					break;
				}
				waiter.await(Math.min(remaining, nextCheckNanos(attempt.retryAfter())));
				handle = takeHandedLock(waiter, request, attempt);
				askNow = true;
			}
			return new Attempt(handle, attempt.retryAfter(), attempt.sentAt(), attempt.busyFence());
		}
		finally {
			this.waiters.leave(waiter);
			if (watching) {
				unwatch(keys);
			}
			if (handle == null) {
				Duration waitLeft = Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
				this.store.releaseInBackground(keys, request.owner(), waitLeft);
			}
		}
	}

	/**
	 * Watches the keys of a refused waiter. A hand-over sent before a new watch began went unseen, so
	 * this returns whether one began: the caller then asks once more.
	 */
	private boolean watch(List<String> keys, long deadline) {
		boolean began = false;
		if (this.releaseNotifications != null) {
			for (String key : keys) {
				long maxWait = Math.min(this.storeTimeout.toNanos(), Math.max(0, deadline - System.nanoTime()));
				began |= this.releaseNotifications.watch(key, Duration.ofNanos(maxWait));
			}
		}
		return began;
	}

	private void unwatch(List<String> keys) {
		if (this.releaseNotifications != null) {
			keys.forEach(this.releaseNotifications::unwatch);
		}
	}

	/** The bounded re-check: the lock's remaining lease when known and shorter, else the re-check interval. */
	private long nextCheckNanos(Duration retryAfter) {
		long recheck = this.recheckInterval.toNanos();
		long lease = retryAfter.toNanos();
		return (lease > 0) ? Math.min(lease, recheck) : recheck;
	}

	private Attempt attempt(LockRequest request, Duration queueFor) throws InterruptedException {
		long sentAt = System.nanoTime();
		AcquireResult result = this.store.tryAcquire(
				new AcquireRequest(request.keys(), request.owner(), request.options().ttl(), queueFor));
		if (!result.acquired()) {
			return new Attempt(null, result.retryAfter(), sentAt, result.busyFence());
		}
		return new Attempt(this.leases.granted(request, result.fencingTokens(), sentAt), Duration.ZERO, sentAt, 0);
	}

	/**
	 * The lock a release handed to this waiter, with its fencing token, without asking the store: held
	 * under the claim lease, counted from the waiter's last request (the hand-over came after it), and
	 * extended to the full lease in the background. Null when nothing was handed over, when the
	 * hand-over is older than the last refusal (its token is at most the fencing counter that refusal
	 * saw: a notification that arrived late, after the claim lapsed and another owner took the lock),
	 * or when too little of the claim is left to start work on: the waiter then asks the store, which
	 * grants a waiter that holds the lock its full lease (and a new fencing token) before work starts.
	 * <p>
	 * How much is too little: the background extension has to land before the claim ends, or the work
	 * finds its lock lost however short it is. That extension waits for a thread of its own and a round
	 * trip, so the claim left must cover {@link #claimMargin}. Asking the store instead costs this
	 * waiter one round trip, made while the claim still holds the lock for it, and never loses a lock
	 * that is still its own; an extension that lands late anyway (a pause longer than the margin) is a
	 * lost lease, counted as such.
	 */
	private @Nullable DefaultLockHandle takeHandedLock(Waiter waiter, LockRequest request, Attempt last) {
		HandedLock handed = waiter.takeHandedLock();
		LockOptions options = request.options();
		if (handed == null || handed.fencingToken() <= last.busyFence()
				|| options.holdAtLeast().compareTo(handed.claimLease()) > 0) {
			// A minimum hold longer than the claim asks the store, which sets the full lease before work starts.
			return null;
		}
		long now = System.nanoTime();
		Lease claim = Lease.of(last.sentAt(), handed.claimLease(), this.leases.driftAllowance(options.ttl()));
		if (!claim.runsAt(now + claimMargin(handed.claimLease(), now - handed.toldAtNanos()))) {
			return null;
		}
		return this.leases.handed(request, handed, last.sentAt());
	}

	/**
	 * How much of a claim of {@code claimLease} must be left for work to start on it while it is
	 * extended in the background: {@link #MIN_CLAIM_MARGIN}, a quarter of the claim, or twice how late
	 * the waiter woke after the hand-over was told ({@code wakeDelayNanos}), whichever is longest. A
	 * machine that delayed the waiter's wake-up is likely to delay the extension as much.
	 */
	private static long claimMargin(Duration claimLease, long wakeDelayNanos) {
		return Math.max(Math.max(MIN_CLAIM_MARGIN.toNanos(), claimLease.toNanos() / 4), 2 * Math.max(0, wakeDelayNanos));
	}

	/** How many waiters and keys the registry of waiting threads keeps, for tests that look into it. */
	int waitRegistrySize() {
		return this.waiters.size();
	}

	/**
	 * One acquisition attempt: the lock when granted, else the retry hint and the refused key's fencing
	 * counter; and when its request was sent.
	 */
	record Attempt(@Nullable DefaultLockHandle handle, Duration retryAfter, long sentAt, long busyFence) {
	}

}
