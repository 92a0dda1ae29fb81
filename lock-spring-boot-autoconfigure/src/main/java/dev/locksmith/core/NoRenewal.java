package dev.locksmith.core;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.function.Consumer;

import dev.locksmith.core.internal.KeyMasking;

/**
 * The {@link Renewal} of locks that nobody renews: their leases run out unless extended on request. A
 * lock handed over under a claim lease is extended to its full lease once, in the background.
 */
final class NoRenewal implements Renewal {

	private static final Logger logger = System.getLogger(NoRenewal.class.getName());

	private final StoreCalls store;

	private final Consumer<DefaultLockHandle> onLost;

	NoRenewal(StoreCalls store, Consumer<DefaultLockHandle> onLost) {
		this.store = store;
		this.onLost = onLost;
	}

	@Override
	public void register(DefaultLockHandle handle) {
	}

	/** Extends the handed lock's claim to its full lease without waiting for the answer. */
	@Override
	public void claimHanded(DefaultLockHandle handle) {
		Duration ttl = handle.ttl();
		long sentAt = System.nanoTime();
		this.store.extendInBackground(handle.extensions(ttl, false)).whenComplete((extended, failure) -> {
			if (failure == null && extended) {
				handle.leaseStarted(sentAt, ttl);
				return;
			}
			if (failure != null) {
				logger.log(Level.WARNING, "Could not extend the claim of lock '" + KeyMasking.mask(handle.name(), handle.key())
						+ "' to its lease; it is counted as lost", failure);
			}
			this.onLost.accept(handle);
		});
	}

	@Override
	public void rescheduled(DefaultLockHandle handle) {
	}

	@Override
	public void unregister(DefaultLockHandle handle) {
	}

	@Override
	public void close() {
	}

}
