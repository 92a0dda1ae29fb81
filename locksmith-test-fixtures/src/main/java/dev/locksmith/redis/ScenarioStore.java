package dev.locksmith.redis;

import java.time.Duration;
import java.util.List;

import org.jspecify.annotations.Nullable;

import dev.locksmith.testing.RedisServer;

/**
 * The store a generated scenario runs on (one Redis, the servers of Redlock, a cluster, or a store in
 * memory): how engines connect to it, how it is emptied, what its operations cost and what it holds.
 */
interface ScenarioStore {

	/** One Redis. */
	static ScenarioStore oneServer(RedisServer redis) {
		return RedisScenarioStore.replicated(List.of(redis), LockEngines.oneServer(redis));
	}

	/** {@code count} engines on the store, each connected as a separate process would be. */
	LockEngines engines(int count, Duration recheckInterval);

	/** Empties the store. */
	void flush();

	/** Zeroes the store's call counts. */
	void resetStats();

	/** The store calls the engines made since the counts were zeroed: scripts on Redis. */
	long calls();

	/** What {@link #calls()} counts, in messages: {@code "scripts"} or {@code "store calls"}. */
	String callsName();

	/** By how much the per-operation and per-second bounds on {@link #calls()} are multiplied. */
	int boundScale();

	/** What the store holds now. */
	State state();

	/** What the store holds at one moment, by lock key (the name the clients lock, such as {@code a}). */
	interface State {

		/** What {@link #holder} returns for a key that is held by an owner this store does not name. */
		String UNNAMED = "(an owner the store does not name)";

		/** The store's clock, in milliseconds, to compare queue deadlines with. */
		long clockMillis();

		/**
		 * The owner token that holds {@code key} (a lock released before its minimum hold ended included),
		 * {@link #UNNAMED} when the store tells only that someone holds it, {@code null} when free.
		 */
		@Nullable String holder(String key);

		/**
		 * The owners that hold {@code key} now: its exclusive owner, or each reader or permit holder whose
		 * lease has not ended (released before its minimum hold ended included); {@link #UNNAMED} alone when
		 * the store tells only that someone holds it; empty when free.
		 */
		default List<String> holders(String key) {
			String holder = holder(key);
			return (holder != null) ? List.of(holder) : List.of();
		}

		/**
		 * The waiters queued for {@code key}, first come first, with their deadlines in the store's clock,
		 * negative while parked; empty when the store does not tell.
		 */
		default List<Queued> queue(String key) {
			return List.of();
		}

		/**
		 * The fencing counter of {@code key}: the last token the store issued for it; {@code null} when the
		 * store does not tell one number (several servers may each keep their own).
		 */
		default @Nullable Long fencingCounter(String key) {
			return null;
		}

		/** Whether this store names holders: when not, the lease-end invariant is not checked. */
		default boolean namesHolders() {
			return true;
		}

		/** Each stored Locksmith entry that never expires, described. */
		List<String> withoutTtl();

		/** The waiters still queued with a deadline after {@code clockMillis}, described. */
		List<String> queuedAfter(long clockMillis);

		/** The remaining lease of {@code key}, for messages. */
		String lease(String key);

		/** The holder and queue of each of {@code keys}, for messages. */
		String describe(List<String> keys);

	}

	/** A waiter in a key's queue and its deadline, negative while it is parked. */
	record Queued(String ownerToken, long deadline) {

		/** Whether the waiter is served when the key frees at {@code clockMillis}: not parked, not expired. */
		boolean liveAt(long clockMillis) {
			return this.deadline > clockMillis;
		}

	}

}
