package dev.locksmith.core;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import dev.locksmith.core.internal.OwnerTokens;

/**
 * SPI for operators: what the lock store holds for every instance, forced release, and a liveness
 * check. Implementations throw {@link LockUnavailableException} when the store cannot be reached.
 *
 * @since 0.1.0
 */
public interface LockAdministration {

	/** A short name of the store and its mode, such as {@code redis-standalone}. */
	String storeDescription();

	/** Answers when the store can serve locks; throws {@link LockUnavailableException} otherwise. */
	void ping();

	/**
	 * For a store of several servers, the state of each ({@code UP}, or {@code DOWN} with the reason) by
	 * name, asked now; empty for a store that is one deployment.
	 */
	default Map<String, String> nodeStates() {
		return Map.of();
	}

	/**
	 * What the store adds to the health details, by name, such as the cluster topology its connection
	 * sees; asks the store nothing. Empty by default.
	 * @since 0.2.0
	 */
	default Map<String, Object> storeDetails() {
		return Map.of();
	}

	/** The locks held in the store by any instance, at most {@code limit} of them. */
	List<StoredLock> storedLocks(int limit);

	/**
	 * Deletes the lock whatever its owner, and wakes its waiters. The fencing counter is kept, so
	 * the evicted holder's writes stay rejected by fenced resources.
	 * @return whether a lock was deleted
	 */
	boolean forceRelease(String key);

	/**
	 * One lock as the store holds it.
	 *
	 * @param name the lock's name, or {@code null} for an unnamed lock
	 * @param key the lock key
	 * @param remainingTtl how long until the lease ends
	 * @param holderInstance the id of the instance that holds it
	 */
	record StoredLock(@Nullable String name, String key, Duration remainingTtl, String holderInstance) {

		/** A lock of a store that keeps no names, as {@code StoredLock} was before 0.2.0. */
		public StoredLock(String key, Duration remainingTtl, String holderInstance) {
			this(null, key, remainingTtl, holderInstance);
		}

		/** A lock as a store holds it whose owner token says its name and holder (see {@code OwnerTokens}). */
		public static StoredLock of(String key, Duration remainingTtl, String ownerToken) {
			return new StoredLock(OwnerTokens.nameOf(ownerToken), key, remainingTtl,
					OwnerTokens.instanceOf(ownerToken));
		}

	}

}
