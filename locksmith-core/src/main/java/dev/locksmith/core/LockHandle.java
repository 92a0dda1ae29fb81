package dev.locksmith.core;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * One granted lock; closing it releases the lock.
 *
 * @since 0.1.0
 */
public interface LockHandle extends AutoCloseable {

	/** The key this lock was acquired for; for several keys acquired together, all of them joined by commas. */
	String key();

	/**
	 * Number that strictly increases with every grant of this key, for fencing writes.
	 * @throws IllegalStateException for a lock of several keys: each key has a token of its own, and no
	 * single number fences them all; use {@link #fencingToken(String)}
	 */
	default long fencingToken() {
		Map<String, Long> tokens = fencingTokens();
		if (tokens.size() != 1) {
			throw new IllegalStateException("Lock of keys " + KeyMasking.describe(List.copyOf(tokens.keySet()))
					+ " has a fencing token per key; ask for one with fencingToken(key)");
		}
		return tokens.values().iterator().next();
	}

	/**
	 * The fencing token of {@code key}, one of the keys this lock holds: send it with every write to the
	 * resource that {@code key} protects.
	 * @throws IllegalArgumentException when this lock does not hold {@code key}
	 */
	default long fencingToken(String key) {
		Long token = fencingTokens().get(key);
		if (token == null) {
			throw new IllegalArgumentException("Lock of keys " + KeyMasking.describe(List.copyOf(fencingTokens().keySet()))
					+ " does not hold key '" + KeyMasking.mask(key) + "'");
		}
		return token;
	}

	/** The fencing token of each key this lock holds, in the lock's canonical key order. */
	Map<String, Long> fencingTokens();

	/** When this process was granted the lock. */
	Instant acquiredAt();

	/** When the current lease ends unless it is extended. */
	Instant expiresAt();

	/** Whether this process still holds the lock: false once released, expired or lost. */
	boolean isHeld();

	/**
	 * Completes, on a thread of its own, when the engine finds the lease lost while the lock is held:
	 * a renewal refused because another owner took the lock, or a lease that ran out while the store
	 * could not be reached. Never completes when the lock is released normally, so a callback on it
	 * means "stop, the lock is gone"; blocking code can also poll {@code lost().toCompletableFuture().isDone()}.
	 * A lock held without renewal is lost likewise when its lease ends, at {@link #expiresAt()}, before its
	 * release. Completing or cancelling the returned stage affects no one else. This default never
	 * completes, for handles that cannot observe their lease.
	 * @since 0.1.0
	 */
	default CompletionStage<Void> lost() {
		return new CompletableFuture<>();
	}

	/**
	 * Extends the lease to {@code ttl} from now, only if this process still owns the lock. A renewed lock
	 * is next renewed a third of {@code ttl} later, so a shorter lease is renewed in time.
	 * @return whether the lease was extended
	 * @throws LockUnavailableException when the backend cannot be reached
	 */
	boolean extend(Duration ttl);

	/**
	 * Takes one more hold on this lock, without a round trip: the lock is released when this handle
	 * and every hold taken from it are closed. Hand a hold to work that may outlive the caller's
	 * scope, such as a task on another thread, and close it when that work ends.
	 * @return a handle for the new hold, on the same lock
	 * @throws LockLostException when the lease was lost
	 * @throws IllegalStateException when the lock was already released
	 */
	LockHandle hold();

	/**
	 * Ends this hold on the lock; the lock is released when its last hold ends, also when it was counted
	 * as lost, in case it is still in the store. Idempotent, and never deletes a lock that another owner
	 * holds.
	 */
	@Override
	void close();

}
