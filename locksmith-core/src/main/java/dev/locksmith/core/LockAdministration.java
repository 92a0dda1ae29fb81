package dev.locksmith.core;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import dev.locksmith.annotation.LockMode;

/**
 * What operators see and do in the lock store, for the Actuator endpoints and health: what the store holds
 * for every instance, forced release, and a liveness check. Each call waits for the store's
 * {@link StoreAdministration} at most the engine's store timeout, on the caller's thread, and throws
 * {@link LockUnavailableException} when the store cannot be reached or does not answer in time.
 *
 * @since 0.1.0
 */
public final class LockAdministration {

	private final StoreAdministration store;

	private final TimeLimit timeLimit;

	private LockAdministration(StoreAdministration store, Duration timeout) {
		this.store = store;
		this.timeLimit = new TimeLimit(timeout);
	}

	/** The administration of {@code store}, each call waiting at most {@code timeout}. */
	public static LockAdministration of(LockStore store, Duration timeout) {
		return new LockAdministration(store.administration(), timeout);
	}

	/** A short name of the store and its mode, such as {@code redis-standalone}. */
	public String storeDescription() {
		return this.store.storeDescription();
	}

	/** Answers when the store can serve locks; throws {@link LockUnavailableException} otherwise. */
	public void ping() {
		await(this.store::ping, "ping");
	}

	/**
	 * For a store of several servers, the state of each ({@code UP}, or {@code DOWN} with the reason) by
	 * name, asked now; empty for a store that is one deployment.
	 */
	public Map<String, String> nodeStates() {
		return await(this.store::nodeStates, "check of the store's servers");
	}

	/**
	 * What the store adds to the health details, by name, such as the cluster topology its connection
	 * sees; asks the store nothing.
	 */
	public Map<String, Object> storeDetails() {
		return this.store.storeDetails();
	}

	/** The locks held in the store by any instance, at most {@code limit} of them. */
	public List<StoredLock> storedLocks(int limit) {
		return await(() -> this.store.storedLocks(limit), "listing of the stored locks");
	}

	/**
	 * Deletes the lock whatever its owner, and wakes its waiters. The fencing counter is kept, so
	 * the evicted holder's writes stay rejected by fenced resources.
	 * @return whether a lock was deleted
	 */
	public boolean forceRelease(String key) {
		return await(() -> this.store.forceRelease(key), "forced release of '" + KeyMasking.mask(key) + "'");
	}

	private <T> T await(Supplier<CompletableFuture<T>> call, String what) {
		try {
			return this.timeLimit.await(call.get(), () -> what);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new LockUnavailableException("Interrupted during " + what, ex);
		}
	}

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
	public record StoredLock(@Nullable String name, String key, Duration remainingTtl, String holderInstance, LockMode mode,
			int permits, List<Holder> holders) {

		public StoredLock {
			holders = List.copyOf(holders);
		}

		/** An exclusive lock, held by one owner. */
		public StoredLock(@Nullable String name, String key, Duration remainingTtl, String holderInstance) {
			this(name, key, remainingTtl, holderInstance, LockMode.WRITE, 1,
					List.of(new Holder(holderInstance, remainingTtl)));
		}

		/** An exclusive lock of a store that keeps no names. */
		public StoredLock(String key, Duration remainingTtl, String holderInstance) {
			this(null, key, remainingTtl, holderInstance);
		}

		/** An exclusive lock as a store holds it, whose owner's token says its name and holder. */
		public static StoredLock of(String key, Duration remainingTtl, String ownerToken) {
			return new StoredLock(OwnerTokens.nameOf(ownerToken), key, remainingTtl,
					OwnerTokens.instanceOf(ownerToken));
		}

		/**
		 * A lock held by readers or permit holders, from the owner token of each holder and its remaining
		 * lease, or {@code null} when every lease has ended.
		 * @param share what the lock's holders share: {@link LockShare#READ} or permits
		 * @throws IllegalArgumentException when {@code share} is exclusive
		 * @since 0.1.0
		 */
		public static @Nullable StoredLock shared(String key, LockShare share, Map<String, Duration> leases) {
			if (share.exclusive()) {
				throw new IllegalArgumentException("Not a share: " + share + "; expected READ or permits");
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
			return new StoredLock(OwnerTokens.nameOf(last.getKey()), key, last.getValue(),
					OwnerTokens.instanceOf(last.getKey()), share.mode(), share.permits(), live.stream()
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
