package dev.locksmith.aop;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import dev.locksmith.core.LockHandle;

/**
 * The lock of one reactive subscription, from grant to end: a handle granted after the subscription
 * ended, or dropped between grant and delivery by a cancel, is released all the same.
 */
final class SubscriptionLock {

	private final AtomicReference<@Nullable LockHandle> handle = new AtomicReference<>();

	private final AtomicBoolean ended = new AtomicBoolean();

	/**
	 * Runs {@code acquisition} and keeps the handle it grants. Returns the handle, or {@code null} when
	 * the subscription ended meanwhile: then the handle is released, and a failure (such as the
	 * interrupt that the cancel sent) is nobody's to hear.
	 */
	@Nullable LockHandle acquire(Supplier<@Nullable LockHandle> acquisition) {
		LockHandle granted;
		try {
			granted = acquisition.get();
		}
		catch (RuntimeException ex) {
			if (this.ended.get()) {
				return null;
			}
			throw ex;
		}
		if (granted == null) {
			return null;
		}
		this.handle.set(granted);
		if (this.ended.get()) {
			if (this.handle.compareAndSet(granted, null)) {
				granted.close();
			}
			return null;
		}
		return granted;
	}

	/** Ends the subscription's hold, whether or not the handle reached the pipeline. */
	void end() {
		this.ended.set(true);
		LockHandle granted = this.handle.getAndSet(null);
		if (granted != null) {
			granted.close();
		}
	}

}
