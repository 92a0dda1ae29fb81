package dev.locksmith.core;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import dev.locksmith.annotation.LockMode;
import dev.locksmith.core.internal.OwnerTokens;
import dev.locksmith.core.internal.Shares;

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
	 * @since 0.1.0
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
	 * @param remainingTtl how long until the lease ends; for a shared lock, the lease that ends last
	 * @param holderInstance the id of the instance that holds it; for a shared lock, of the holder whose
	 * lease ends last
	 * @param mode {@link LockMode#WRITE} for an exclusive lock and for permits, {@link LockMode#READ} for readers
	 * @param permits how many holders the lock admits at once: 1 for an exclusive or a read lock
	 * @param holders each holder with its own lease: the one owner of an exclusive lock, or each reader or
	 * permit holder
	 */
	record StoredLock(@Nullable String name, String key, Duration remainingTtl, String holderInstance, LockMode mode,
			int permits, List<Holder> holders) {

		public StoredLock {
			holders = List.copyOf(holders);
		}

		/** An exclusive lock, held by one owner. */
		public StoredLock(@Nullable String name, String key, Duration remainingTtl, String holderInstance) {
			this(name, key, remainingTtl, holderInstance, LockMode.WRITE, 1,
					List.of(new Holder(holderInstance, remainingTtl)));
		}

		/** A lock of a store that keeps no names, as {@code StoredLock} was before 0.2.0. */
		public StoredLock(String key, Duration remainingTtl, String holderInstance) {
			this(null, key, remainingTtl, holderInstance);
		}

		/** A lock as a store holds it whose owner token says its name and holder (see {@code OwnerTokens}). */
		public static StoredLock of(String key, Duration remainingTtl, String ownerToken) {
			return new StoredLock(OwnerTokens.nameOf(ownerToken), key, remainingTtl,
					OwnerTokens.instanceOf(ownerToken));
		}

		/**
		 * A lock held by readers or permit holders, from the owner token of each holder and its remaining
		 * lease, or {@code null} when every lease has ended.
		 * @param share what the lock's holders share, as the store keeps it: {@code @read} or {@code @permits=<n>}
		 * @throws IllegalArgumentException when {@code share} names no share
		 * @since 0.1.0
		 */
		public static @Nullable StoredLock shared(String key, String share, Map<String, Duration> leases) {
			if (Shares.shareOf(share + "/") == null) {
				throw new IllegalArgumentException("Not a share: '" + share + "'; expected @read or @permits=<n>");
			}
			List<Map.Entry<String, Duration>> live = leases.entrySet()
				.stream()
				.filter((lease) -> !lease.getValue().isNegative() && !lease.getValue().isZero())
				.sorted(Map.Entry.comparingByValue())
				.toList();
			if (live.isEmpty()) {
				return null;
			}
			Map.Entry<String, Duration> last = live.get(live.size() - 1);
			int permits = Shares.permitsOf(share);
			return new StoredLock(OwnerTokens.nameOf(last.getKey()), key, last.getValue(),
					OwnerTokens.instanceOf(last.getKey()), (permits > 0) ? LockMode.WRITE : LockMode.READ,
					Math.max(1, permits), live.stream()
						.map((lease) -> new Holder(OwnerTokens.instanceOf(lease.getKey()), lease.getValue()))
						.toList());
		}

		/**
		 * One holder of a lock.
		 *
		 * @param instance the id of the instance that holds it
		 * @param remainingLease how long until its own lease ends
		 * @since 0.1.0
		 */
		public record Holder(String instance, Duration remainingLease) {
		}

	}

}
