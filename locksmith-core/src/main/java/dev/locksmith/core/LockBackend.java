package dev.locksmith.core;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.jspecify.annotations.Nullable;

import dev.locksmith.annotation.LockMode;

/**
 * SPI of the store that keeps the locks: one method a round trip, no waiting, no local state. Every
 * method sends its request and returns at once; the store's answer completes the future, or fails it
 * with {@link LockUnavailableException} when the store cannot be reached. The engine bounds each wait.
 *
 * @since 0.1.0
 */
public interface LockBackend {

	/**
	 * Sets every lock of {@code keys} when all are free and no earlier waiter is queued for them, else
	 * none, and issues the next fencing token of each, in one round trip. A lock handed to
	 * {@code ownerToken} by a release counts as free for it. When refused and {@code queueFor} is
	 * positive, the caller stands in the queue of each key for that long, keeping its place across
	 * attempts with the same owner token. An owner token {@code <share>/<token>}, with the share
	 * {@code @read} or {@code @permits=<n>}, asks for a share of the one key of {@code keys}, as a
	 * reader or as one of {@code n} permit holders; the engine sends those only to a store that
	 * {@link #grantsShares() grants shares}, and releases and extends them with the same token.
	 */
	CompletableFuture<AcquireResult> tryAcquire(List<String> keys, String ownerToken, Duration ttl, Duration queueFor);

	/**
	 * Deletes each lock of {@code keys} that {@code ownerToken} still owns, takes that owner out of their
	 * queues, and hands each freed lock to its first waiter, in one round trip.
	 * @return how many locks were released
	 */
	CompletableFuture<Integer> release(List<String> keys, String ownerToken);

	/**
	 * Releases like {@link #release(List, String)}, and tells {@code handOvers} of each lock the release
	 * handed to a waiter before the answer completes, so that a waiter in this process starts at once
	 * instead of when the store's notification arrives (it may arrive as well). A store whose release
	 * answer does not name the waiters it handed locks to keeps this default, which tells nothing.
	 * @return how many locks were released
	 */
	default CompletableFuture<Integer> release(List<String> keys, String ownerToken,
			ReleaseNotifications.Listener handOvers) {
		return release(keys, ownerToken);
	}

	/**
	 * Extends every lease whose owner token still matches, in as few round trips as the store allows,
	 * sent together where they are several.
	 * @return for each lease, in order, whether it was extended; a part of the store that fails or stalls
	 * fails or delays only the answers for its own leases
	 */
	List<CompletableFuture<Boolean>> extend(List<LeaseExtension> leases);

	/** Whether any owner, or a waiter handed the lock, holds the lock of {@code key}, in one round trip. */
	CompletableFuture<Boolean> isLocked(String key);

	/** Whether this store grants shares: readers ({@link LockMode#READ}) and permits; else the engine refuses them. */
	default boolean grantsShares() {
		return false;
	}

	/**
	 * How long the holder may count on a lease of {@code ttl} granted or extended for a request sent at
	 * some moment, from that moment: less than {@code ttl} for a store of several servers whose clocks
	 * may drift apart. The engine ends its local view of the lease after this long at most.
	 */
	default Duration validity(Duration ttl) {
		return ttl;
	}

	/**
	 * How long a waiter that a release hands a lock to has to take it before the lock goes on; zero for
	 * a store whose releases hand locks to nobody (its waiters ask again when told of a release). The
	 * engine refuses a claim lease shorter than two of its re-check intervals: a waiter whose notice of
	 * the hand-over was lost would find its claim lapsed when it looks.
	 */
	default Duration claimLease() {
		return Duration.ZERO;
	}

	/**
	 * Outcome of one acquisition attempt.
	 *
	 * @param fencingTokens when granted, the fencing token of each key in order; empty when refused
	 * @param busyKey when refused, the key that another owner holds
	 * @param retryAfter when refused, the busy lock's remaining lease: a hint for when to try again
	 * @param busyFence when refused, the busy key's fencing counter, or 0 when the store gives none: a
	 * hand-over of that key with a token at or below it is older than the refusal
	 */
	record AcquireResult(List<Long> fencingTokens, @Nullable String busyKey, Duration retryAfter, long busyFence) {

		/** A grant carrying the fencing token of each key. */
		public static AcquireResult granted(List<Long> fencingTokens) {
			return new AcquireResult(List.copyOf(fencingTokens), null, Duration.ZERO, 0);
		}

		/** A refusal because another owner holds {@code busyKey} for {@code remainingTtl}. */
		public static AcquireResult busy(String busyKey, Duration remainingTtl) {
			return busy(busyKey, remainingTtl, 0);
		}

		/**
		 * A refusal, with the fencing counter of {@code busyKey} when it was refused: a hand-over of that
		 * key carrying a token at or below it was made before this refusal, and is stale.
		 */
		public static AcquireResult busy(String busyKey, Duration remainingTtl, long busyFence) {
			return new AcquireResult(List.of(), busyKey, remainingTtl, busyFence);
		}

		/** Whether every lock was granted. */
		public boolean acquired() {
			return this.busyKey == null;
		}

	}

	/**
	 * One lease to extend.
	 *
	 * @param key the lock key
	 * @param ownerToken the token the lock must still hold
	 * @param ttl the new lease, counted from now
	 * @param last whether this is the owner's last lease, sent when it releases a lock that must stay
	 * taken a while longer: the lock then stays taken for {@code ttl}, but no longer as the owner's, so no
	 * extension sent earlier and answered later lengthens it
	 */
	record LeaseExtension(String key, String ownerToken, Duration ttl, boolean last) {

		/** A lease the owner goes on holding. */
		public LeaseExtension(String key, String ownerToken, Duration ttl) {
			this(key, ownerToken, ttl, false);
		}

	}

}
