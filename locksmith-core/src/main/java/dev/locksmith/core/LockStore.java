package dev.locksmith.core;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

import org.jspecify.annotations.Nullable;

/**
 * SPI of the store that keeps the locks, the one type a store implements: one method a round trip, no
 * waiting, no local state, and the store's {@link #notifications() release notifications} and
 * {@link #administration() administration}. Every method sends its request and returns at once; the
 * store's answer completes the future, or fails it with {@link LockUnavailableException} when the store
 * cannot be reached, or with {@link StoreBusyException} when the engine should send it again. The engine
 * bounds each wait. A store that needs starting and stopping starts itself or is started by its owner;
 * {@link #close()} frees what it holds.
 *
 * @since 0.1.0
 */
public interface LockStore extends AutoCloseable {

	/**
	 * Sets every lock of the request's keys when all are free and no earlier waiter is queued for them,
	 * else none, and issues the next fencing token of each, in one round trip. A lock handed to the
	 * request's owner by a release counts as free for it. When refused and {@code queueFor} is positive,
	 * the owner stands in the queue of each key for that long, keeping its place across attempts with the
	 * same token. An owner asking for a {@link LockShare#READ reader's share} or for {@link LockShare#permits
	 * permits} asks for one key; the engine sends those only to a store that {@link #grantsShares() grants
	 * shares}, and releases and extends them with the same owner.
	 */
	CompletableFuture<AcquireResult> tryAcquire(AcquireRequest request);

	/**
	 * Deletes each lock of {@code keys} that {@code owner} still holds, takes that owner out of their
	 * queues, and hands each freed lock to its first waiter, in one round trip. A store whose answer names
	 * the waiters it handed locks to tells {@code handOvers} of each before the answer completes, so that a
	 * waiter in this process starts at once instead of when the store's notification arrives.
	 * @return how many locks were released
	 */
	CompletableFuture<Integer> release(List<String> keys, LockOwner owner, ReleaseNotifications.Listener handOvers);

	/**
	 * Extends every lease whose owner still holds it, in as few round trips as the store allows, sent
	 * together where they are several.
	 * @return for each lease, in order, whether it was extended; a part of the store that fails or stalls
	 * fails or delays only the answers for its own leases
	 */
	List<CompletableFuture<Boolean>> extend(List<LeaseExtension> leases);

	/** Whether any owner, or a waiter handed the lock, holds the lock of {@code key}, in one round trip. */
	CompletableFuture<Boolean> isLocked(String key);

	/** What operators see and do in this store: the locks held, forced release, a liveness check. */
	StoreAdministration administration();

	/**
	 * The store's notices of hand-overs, or {@code null} for a store that sends none: its waiters then ask
	 * again every re-check interval.
	 */
	default @Nullable ReleaseNotifications notifications() {
		return null;
	}

	/** Whether this store grants {@link LockShare shares} other than exclusive ones; else the engine refuses them. */
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

	/** Frees the connections and threads this store holds; nothing by default. */
	@Override
	default void close() {
	}

	/**
	 * One acquisition attempt.
	 *
	 * @param keys the keys to lock, all or none, canonical and without duplicates
	 * @param owner who asks, and for what share
	 * @param ttl the lease of each lock, counted from when the store grants it
	 * @param queueFor how long the owner keeps its place in the queues when refused; zero: no place
	 */
	record AcquireRequest(List<String> keys, LockOwner owner, Duration ttl, Duration queueFor) {

		public AcquireRequest {
			keys = List.copyOf(keys);
		}

	}

	/**
	 * Outcome of one acquisition attempt.
	 *
	 * @param fencingTokens when granted, the fencing token of each key, in the request's key order; empty
	 * when refused
	 * @param busyKey when refused, the key that another owner holds
	 * @param retryAfter when refused, the busy lock's remaining lease: a hint for when to try again
	 * @param busyFence when refused, the busy key's fencing counter, or 0 when the store gives none: a
	 * hand-over of that key with a token at or below it is older than the refusal
	 */
	record AcquireResult(Map<String, Long> fencingTokens, @Nullable String busyKey, Duration retryAfter,
			long busyFence) {

		public AcquireResult {
			fencingTokens.forEach((key, token) -> Objects.requireNonNull(token, "no fencing token for a granted key"));
			fencingTokens = Collections.unmodifiableMap(new LinkedHashMap<>(fencingTokens));
		}

		/** A grant carrying the fencing token of each key. */
		public static AcquireResult granted(Map<String, Long> fencingTokens) {
			return new AcquireResult(fencingTokens, null, Duration.ZERO, 0);
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
			return new AcquireResult(Map.of(), busyKey, remainingTtl, busyFence);
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
	 * @param owner the owner that must still hold the lock
	 * @param ttl the new lease, counted from now
	 * @param last whether this is the owner's last lease, sent when it releases a lock that must stay
	 * taken a while longer: the lock then stays taken for {@code ttl}, but no longer as the owner's, so no
	 * extension sent earlier and answered later lengthens it
	 */
	record LeaseExtension(String key, LockOwner owner, Duration ttl, boolean last) {

		/** A lease the owner goes on holding. */
		public LeaseExtension(String key, LockOwner owner, Duration ttl) {
			this(key, owner, ttl, false);
		}

	}

}
