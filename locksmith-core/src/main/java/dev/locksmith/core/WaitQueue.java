package dev.locksmith.core;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;

/**
 * One lock as its store keeps it for owners who wait: who holds it, its last grant, and who waits for it,
 * first come first. What {@link StoreAdministration#waitQueues(int)} lists.
 *
 * @param key the lock key
 * @param holders the owners that hold the lock, or that a release handed it to: one, or each reader or
 * permit holder; empty while nobody does
 * @param fencingToken the last fencing token issued for the key, which is its holder's for an exclusive
 * lock; 0 when the store keeps none
 * @param heldFor how long ago that token was issued, by the store's clock, or {@code null} when not known
 * @param waiters the owners that stand in the lock's queue, in queue order
 * @since 0.1.0
 */
public record WaitQueue(String key, List<StoredOwner> holders, long fencingToken, @Nullable Duration heldFor,
		List<Waiter> waiters) {

	public WaitQueue {
		holders = List.copyOf(holders);
		waiters = List.copyOf(waiters);
	}

	/** The lock's name as its holders' or waiters' tokens carry it, or {@code null} for an unnamed lock. */
	public @Nullable String name() {
		return Stream.concat(this.holders.stream(), this.waiters.stream().map(Waiter::owner))
			.map(StoredOwner::name)
			.filter(Objects::nonNull)
			.findFirst()
			.orElse(null);
	}

	/**
	 * One owner in a lock's queue.
	 *
	 * @param owner who waits
	 * @param waitLeft how long until its wait ends, by the store's clock
	 * @param parked whether it keeps its place here while it waits for another key of its request that was
	 * busy: a release passes it over
	 * @since 0.1.0
	 */
	public record Waiter(StoredOwner owner, Duration waitLeft, boolean parked) {

		/** The waiter whose owner token is {@code ownerToken}. */
		public static Waiter of(String ownerToken, Duration waitLeft, boolean parked) {
			return new Waiter(StoredOwner.of(ownerToken), waitLeft, parked);
		}

	}

}
