package dev.locksmith.test.inmemory;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.locksmith.core.ReleaseNotifications;

/**
 * Tells every listening engine of each hand-over of the in-memory store, on the thread of the call
 * that handed the lock over: listeners only wake a waiter and never block. Every key counts as
 * watched, so no hand-over can go unseen before a watch begins.
 */
final class InMemoryReleaseNotifications implements ReleaseNotifications {

	private final List<Listener> listeners = new CopyOnWriteArrayList<>();

	@Override
	public void listen(Listener listener) {
		this.listeners.add(listener);
	}

	@Override
	public boolean watch(String key, Duration maxWait) {
		return false;
	}

	@Override
	public void unwatch(String key) {
	}

	void handedOver(String key, String ownerToken, Duration claimLease, long fencingToken) {
		this.listeners.forEach((listener) -> listener.handedOver(key, ownerToken, claimLease, fencingToken));
	}

}
