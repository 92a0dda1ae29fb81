package dev.locksmith.core;

import java.time.Duration;

import dev.locksmith.core.observation.LockOutcome;

/**
 * Gives locks back to the store: deletes a lock, or while its minimum hold lasts, shortens its lease to
 * what is left of it as the owner's last lease, which no renewal still in flight can lengthen. The lock
 * then frees itself, and waiters find it free when they look again.
 */
final class Releases {

	private final StoreCalls store;

	Releases(StoreCalls store) {
		this.store = store;
	}

	/** Releases a lock the engine no longer counts as held; a failure is retried in the background or logged. */
	void release(DefaultLockHandle handle) {
		Duration holdLeft = handle.minimumHoldLeft();
		handle.endObservation(LockOutcome.RELEASED);
		try {
			if (holdLeft.isZero()) {
				this.store.release(handle.keys(), handle.owner());
			}
			else {
				this.store.extend(handle.extensions(holdLeft, true));
			}
		}
		catch (LockUnavailableException ex) {
			if (holdLeft.isZero()) {
				this.store.retryRelease(handle.keys(), handle.owner(), handle.leaseDeadlineNanos(), ex);
			}
			else {
				String lock = "'" + KeyMasking.mask(handle.name(), handle.key()) + "'";
				this.store.releaseFailed(lock, "Could not release lock " + lock + "; it frees itself when its lease ends",
						ex);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			// A shortened lease was sent already; only its answer goes unread.
			if (holdLeft.isZero()) {
				this.store.releaseInBackground(handle.keys(), handle.owner(), Duration.ZERO);
			}
		}
	}

}
