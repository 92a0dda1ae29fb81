package dev.locksmith.redis;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReferenceArray;

import dev.locksmith.core.ReleaseNotifications.Listener;

/**
 * Passes on the first of the notices that every Redlock server sends of one release, known by its key
 * and owner token, and drops the repeats. It remembers recent releases in a small table: when two
 * releases share a slot, a repeat gets through and costs one waiter a look, never a lost notice.
 */
final class FirstNotices implements Listener {

	private static final int SLOTS = 256;

	private final AtomicReferenceArray<String> recent = new AtomicReferenceArray<>(SLOTS);

	private final Listener listener;

	FirstNotices(Listener listener) {
		this.listener = listener;
	}

	@Override
	public void handedOver(String key, String ownerToken, Duration claimLease, long fencingToken) {
		String release = ownerToken + '\n' + key;
		if (!release.equals(this.recent.getAndSet(release.hashCode() & (SLOTS - 1), release))) {
			this.listener.handedOver(key, ownerToken, claimLease, fencingToken);
		}
	}

}
