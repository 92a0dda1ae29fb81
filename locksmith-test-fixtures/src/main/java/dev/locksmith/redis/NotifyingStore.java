package dev.locksmith.redis;

import dev.locksmith.core.ForwardingStore;
import dev.locksmith.core.LockStore;
import dev.locksmith.core.ReleaseNotifications;

/** A store's lock calls with release notifications made apart from it, as tests wire the parts themselves. */
final class NotifyingStore extends ForwardingStore {

	private final ReleaseNotifications notifications;

	private NotifyingStore(LockStore store, ReleaseNotifications notifications) {
		super(store);
		this.notifications = notifications;
	}

	/** {@code store} with {@code notifications}. */
	static LockStore of(LockStore store, ReleaseNotifications notifications) {
		return new NotifyingStore(store, notifications);
	}

	@Override
	public ReleaseNotifications notifications() {
		return this.notifications;
	}

}
