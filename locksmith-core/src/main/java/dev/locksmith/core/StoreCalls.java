package dev.locksmith.core;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import dev.locksmith.core.LockStore.AcquireRequest;
import dev.locksmith.core.LockStore.AcquireResult;
import dev.locksmith.core.LockStore.LeaseExtension;

/**
 * The engine's side of the {@link LockStore}: waits for each store call on the caller's thread, at
 * most the store timeout, and turns silence into a {@link LockUnavailableException}. No thread is
 * started or borrowed per call. A call the store refused for a passing reason (a migrating cluster
 * slot) is sent again within that time. An acquisition that answers after its caller gave up is released.
 */
final class StoreCalls {

	private static final Logger logger = System.getLogger(StoreCalls.class.getName());

	private final LockStore store;

	private final TimeLimit timeLimit;

	private final Duration timeout;

	private final ReleaseNotifications.Listener handOvers;

	private final OutageLog releaseOutages = new OutageLog(logger, "Releasing locks again");

	/** Calls on {@code store}; the hand-overs a release answers go to {@code handOvers}, this process's waiters. */
	StoreCalls(LockStore store, Duration timeout, ReleaseNotifications.Listener handOvers) {
		this.store = store;
		this.timeLimit = new TimeLimit(timeout);
		this.timeout = timeout;
		this.handOvers = handOvers;
	}

	/** Sent again while refused for a passing reason, within the timeout and the caller's wait when it waits less. */
	AcquireResult tryAcquire(AcquireRequest request) throws InterruptedException {
		List<String> keys = request.keys();
		LockOwner owner = request.owner();
		Duration queueFor = request.queueFor();
		Duration within = (queueFor.isZero() || queueFor.compareTo(this.timeout) > 0) ? this.timeout : queueFor;
		CompletableFuture<AcquireResult> call = Resend.until(deadline(within), Resend.WHEN_BUSY,
				() -> this.store.tryAcquire(request));
		try {
			return await(call, () -> "acquire of " + KeyMasking.describe(keys));
		}
		catch (LockUnavailableException | InterruptedException ex) {
			// Given back at once, which frees the locks of the slots that already answered (and any grant
			// still in flight on the same connection), and again when the call ends, however it ends: a late
			// grant is given back too, as is a script that failed on the way back but still ran.
			releaseInBackground(keys, owner, queueFor);
			call.whenComplete((late, failure) -> releaseInBackground(keys, owner, queueFor));
			throw ex;
		}
	}

	int release(List<String> keys, LockOwner owner) throws InterruptedException {
		int released = await(whileBusy(() -> this.store.release(keys, owner, this.handOvers)),
				() -> "release of " + KeyMasking.describe(keys));
		this.releaseOutages.answered();
		return released;
	}

	/**
	 * Sends a release without waiting for it: for a waiter that gives up, or a grant nobody waits for.
	 * However it fails, it is sent again for the timeout or {@code queuedFor}, the longer: the time the
	 * owner's places in the queues last, so no queue keeps a waiter that left, for a release to hand a
	 * lock to.
	 */
	void releaseInBackground(List<String> keys, LockOwner owner, Duration queuedFor) {
		Duration within = (queuedFor.compareTo(this.timeout) > 0) ? queuedFor : this.timeout;
		Resend.until(deadline(within), Resend.ON_ANY_FAILURE, () -> this.store.release(keys, owner, this.handOvers))
			.whenComplete((released, failure) -> {
				if (failure != null) {
					logger.log(Level.DEBUG, "Could not release " + KeyMasking.describe(keys)
							+ "; it frees itself when its lease ends", failure);
				}
			});
	}

	/**
	 * Sends again, in the background, the release of a lock whose release failed with {@code failure},
	 * until it succeeds or the lease ends at {@code leaseDeadlineNanos}. The failure is logged as
	 * {@link #releaseFailed} says; the outcome at DEBUG, and a release on a retry as the store's recovery.
	 */
	void retryRelease(List<String> keys, LockOwner owner, long leaseDeadlineNanos, LockUnavailableException failure) {
		String locks = KeyMasking.describe(keys);
		releaseFailed(locks, "Could not release " + locks + "; retrying until its lease ends in "
				+ Math.max(0, Duration.ofNanos(leaseDeadlineNanos - System.nanoTime()).toMillis()) + "ms", failure);
		Resend.until(leaseDeadlineNanos, Resend.ON_ANY_FAILURE, () -> this.store.release(keys, owner, this.handOvers))
			.whenComplete((released, retryFailure) -> {
				if (retryFailure == null) {
					logger.log(Level.DEBUG, "Released " + locks + " on a retry");
					this.releaseOutages.answered();
				}
				else {
					logger.log(Level.DEBUG, "Could not release " + locks + " before its lease ended; it freed itself then",
							retryFailure);
				}
			});
	}

	/**
	 * The release of {@code locks} failed with {@code failure}, as {@code what} says: WARN once per lock and
	 * outage of the store, DEBUG after that, and INFO once when a release succeeds again.
	 */
	void releaseFailed(String locks, String what, Throwable failure) {
		this.releaseOutages.failed(locks, what, failure);
	}

	/** Extends every lease or fails as one: for an extension that a caller asked for and waits on. */
	List<Boolean> extend(List<LeaseExtension> leases) throws InterruptedException {
		return await(whileBusy(() -> {
			List<CompletableFuture<Boolean>> answers = this.store.extend(leases);
			return CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new))
				.thenApply((done) -> answers.stream().map(CompletableFuture::join).toList());
		}), () -> "extend of " + KeyMasking.describe(leases.stream().map(LeaseExtension::key).toList()));
	}

	/**
	 * Extends the leases and waits at most the timeout for their answers, each on its own: where a part
	 * of the store fails or stalls, only the answers for its own leases are failed or still pending.
	 */
	List<CompletableFuture<Boolean>> extendEach(List<LeaseExtension> leases) throws InterruptedException {
		List<CompletableFuture<Boolean>> answers = this.store.extend(leases);
		this.timeLimit.awaitAll(answers);
		return answers;
	}

	/** Extends every lease without waiting: answers whether all were extended, or fails as the store does. */
	CompletableFuture<Boolean> extendInBackground(List<LeaseExtension> leases) {
		List<CompletableFuture<Boolean>> answers = this.store.extend(leases);
		return CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new))
			.thenApply((done) -> answers.stream().allMatch(CompletableFuture::join));
	}

	/** Whether an answer of {@link #extendEach} came, successfully, in time. */
	static boolean answered(CompletableFuture<Boolean> answer) {
		return answer.isDone() && !answer.isCompletedExceptionally();
	}

	boolean isLocked(String key) throws InterruptedException {
		return await(whileBusy(() -> this.store.isLocked(key)), () -> "lookup of " + KeyMasking.describe(List.of(key)));
	}

	/** The store's name in messages: its class's simple name. */
	String name() {
		return this.store.getClass().getSimpleName();
	}

	boolean grantsShares() {
		return this.store.grantsShares();
	}

	Duration validity(Duration ttl) {
		return this.store.validity(ttl);
	}

	/** The call, sent again within the timeout while the store refuses it for a passing reason. */
	private <T> CompletableFuture<T> whileBusy(Supplier<CompletableFuture<T>> call) {
		return Resend.until(deadline(this.timeout), Resend.WHEN_BUSY, call);
	}

	private static long deadline(Duration within) {
		return System.nanoTime() + within.toNanos();
	}

	private <T> T await(CompletableFuture<T> call, Supplier<String> what) throws InterruptedException {
		return this.timeLimit.await(call, what);
	}

}
