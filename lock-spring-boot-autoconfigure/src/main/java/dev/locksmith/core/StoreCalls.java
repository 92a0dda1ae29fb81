package dev.locksmith.core;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import dev.locksmith.core.LockBackend.AcquireResult;
import dev.locksmith.core.LockBackend.LeaseExtension;
import dev.locksmith.core.internal.KeyMasking;
import dev.locksmith.core.internal.TimeLimit;

/**
 * The engine's side of the {@link LockBackend}: waits for each store call on the caller's thread, at
 * most the store timeout, and turns silence into a {@link LockUnavailableException}. No thread is
 * started or borrowed per call. An acquisition that answers after its caller gave up is released.
 */
final class StoreCalls {

	private static final Logger logger = System.getLogger(StoreCalls.class.getName());

	private final LockBackend backend;

	private final TimeLimit timeLimit;

	StoreCalls(LockBackend backend, Duration timeout) {
		this.backend = backend;
		this.timeLimit = new TimeLimit(timeout);
	}

	AcquireResult tryAcquire(List<String> keys, String ownerToken, Duration ttl, Duration queueFor)
			throws InterruptedException {
		CompletableFuture<AcquireResult> call = this.backend.tryAcquire(keys, ownerToken, ttl, queueFor);
		try {
			return await(call, () -> "acquire of " + KeyMasking.describe(keys));
		}
		catch (LockUnavailableException | InterruptedException ex) {
			// Given back at once, which frees the locks of the slots that already answered (and any grant
			// still in flight on the same connection), and again when the call ends, however it ends: a late
			// grant is given back too, as is a script that failed on the way back but still ran.
			releaseInBackground(keys, ownerToken);
			call.whenComplete((late, failure) -> releaseInBackground(keys, ownerToken));
			throw ex;
		}
	}

	int release(List<String> keys, String ownerToken) throws InterruptedException {
		return await(this.backend.release(keys, ownerToken), () -> "release of " + KeyMasking.describe(keys));
	}

	/** Sends a release without waiting for it: for a waiter that gives up, or a grant nobody waits for. */
	void releaseInBackground(List<String> keys, String ownerToken) {
		this.backend.release(keys, ownerToken).whenComplete((released, failure) -> {
			if (failure != null) {
				logger.log(Level.DEBUG, "Could not release " + KeyMasking.describe(keys)
						+ "; it frees itself when its lease ends", failure);
			}
		});
	}

	/** Extends every lease or fails as one: for an extension that a caller asked for and waits on. */
	List<Boolean> extend(List<LeaseExtension> leases) throws InterruptedException {
		List<CompletableFuture<Boolean>> answers = this.backend.extend(leases);
		return await(CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new))
			.thenApply((done) -> answers.stream().map(CompletableFuture::join).toList()),
				() -> "extend of " + KeyMasking.describe(leases.stream().map(LeaseExtension::key).toList()));
	}

	/**
	 * Extends the leases and waits at most the timeout for their answers, each on its own: where a part
	 * of the store fails or stalls, only the answers for its own leases are failed or still pending.
	 */
	List<CompletableFuture<Boolean>> extendEach(List<LeaseExtension> leases) throws InterruptedException {
		List<CompletableFuture<Boolean>> answers = this.backend.extend(leases);
		this.timeLimit.awaitAll(answers);
		return answers;
	}

	/** Extends every lease without waiting: answers whether all were extended, or fails as the store does. */
	CompletableFuture<Boolean> extendInBackground(List<LeaseExtension> leases) {
		List<CompletableFuture<Boolean>> answers = this.backend.extend(leases);
		return CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new))
			.thenApply((done) -> answers.stream().allMatch(CompletableFuture::join));
	}

	/** Whether an answer of {@link #extendEach} came, successfully, in time. */
	static boolean answered(CompletableFuture<Boolean> answer) {
		return answer.isDone() && !answer.isCompletedExceptionally();
	}

	boolean isLocked(String key) throws InterruptedException {
		return await(this.backend.isLocked(key), () -> "lookup of " + KeyMasking.describe(List.of(key)));
	}

	/** The store's name in messages: its class's simple name. */
	String name() {
		return this.backend.getClass().getSimpleName();
	}

	boolean grantsShares() {
		return this.backend.grantsShares();
	}

	Duration validity(Duration ttl) {
		return this.backend.validity(ttl);
	}

	private <T> T await(CompletableFuture<T> call, Supplier<String> what) throws InterruptedException {
		return this.timeLimit.await(call, what);
	}

}
