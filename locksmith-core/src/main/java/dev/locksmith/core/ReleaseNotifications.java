package dev.locksmith.core;

import java.time.Duration;

/**
 * SPI that tells this process when a release hands a lock it waits for to a waiter, so waiters wake
 * up instead of polling. Delivery is best effort: waiters still re-check now and then.
 *
 * @since 0.1.0
 */
public interface ReleaseNotifications {

	/** Sends every hand-over of a watched key to {@code listener} from now on. */
	void listen(Listener listener);

	/**
	 * Starts receiving the hand-overs of {@code key}; returns once the store confirmed it, or after
	 * {@code maxWait} at most, while subscribing goes on in the background.
	 * @return whether a new subscription began, so that a hand-over sent just before it went unseen
	 */
	boolean watch(String key, Duration maxWait);

	/** Stops receiving the hand-overs of {@code key}, unless it is watched again meanwhile. */
	void unwatch(String key);

	/** Receives hand-overs; called on the notifications' own thread, so it must not block. */
	@FunctionalInterface
	interface Listener {

		/**
		 * A release handed {@code key} to the waiter whose {@link LockOwner#token() token} is {@code ownerToken} for {@code claimLease}, and
		 * issued {@code fencingToken} for it: a waiter for that key alone holds the lock from then on and
		 * extends the claim to its own lease; a waiter for several keys takes it with the others. A zero
		 * claim lease means the lock went to nobody (a store without queues), and names the owner that
		 * freed it.
		 * @param fencingToken the token issued with the hand-over, or 0 when the store issues none: the
		 * waiter then takes the lock by asking the store
		 */
		void handedOver(String key, String ownerToken, Duration claimLease, long fencingToken);

	}

}
