package dev.locksmith.core;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import dev.locksmith.core.LockAdministration.StoredLock;

/**
 * SPI of what operators see and do in a {@link LockStore}: what it holds for every instance, forced
 * release, and a liveness check. Like the store's lock calls, each call that asks the store returns at
 * once, without blocking, and its answer completes the future, or fails it with
 * {@link LockUnavailableException}; the engine's {@link LockAdministration} bounds each wait. A store
 * whose client blocks runs the call on threads of its own, as the Redis store does.
 *
 * @since 0.1.0
 */
public interface StoreAdministration {

	/** A short name of the store and its mode, such as {@code redis-standalone}. */
	String storeDescription();

	/** Completes when the store can serve locks; fails with {@link LockUnavailableException} otherwise. */
	CompletableFuture<Void> ping();

	/**
	 * For a store of several servers, the state of each ({@code UP}, or {@code DOWN} with the reason) by
	 * name, asked now; empty for a store that is one deployment.
	 */
	default CompletableFuture<Map<String, String>> nodeStates() {
		return CompletableFuture.completedFuture(Map.of());
	}

	/**
	 * What the store adds to the health details, by name, such as the cluster topology its connection
	 * sees; asks the store nothing. Empty by default.
	 */
	default Map<String, Object> storeDetails() {
		return Map.of();
	}

	/** The locks held in the store by any instance, at most {@code limit} of them. */
	CompletableFuture<List<StoredLock>> storedLocks(int limit);

	/**
	 * The locks of the store that owners wait for, at most {@code limit} of them: who holds each, its last
	 * grant, and its waiters in queue order, asked now. A store that cannot tell its queues fails the future
	 * with {@link UnsupportedOperationException}, as this default does.
	 */
	default CompletableFuture<List<WaitQueue>> waitQueues(int limit) {
		return CompletableFuture.failedFuture(new UnsupportedOperationException(
				"Wait queues are not supported by this store (" + storeDescription() + ")"));
	}

	/**
	 * Deletes the lock whatever its owner, and wakes its waiters. The fencing counter is kept, so the
	 * evicted holder's writes stay rejected by fenced resources.
	 * @return whether a lock was deleted
	 */
	CompletableFuture<Boolean> forceRelease(String key);

}
