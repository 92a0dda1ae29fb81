package dev.locksmith.core;

import java.time.Duration;

/**
 * What work handed to another thread sees of the lock of the call that handed it over: the keys, fencing
 * tokens and lease, {@link #isHeld()} turning false once that call releases the lock, and {@link #lost()} as
 * the lock's own. Only the call that holds the lock extends, holds again or releases it: closing this view
 * ends nothing, and work that has to keep the lock gets a {@link LockHandle#hold()} from that call.
 */
final class HandedOverLockHandle extends ForwardingLockHandle {

	private HandedOverLockHandle(LockHandle lock) {
		super(lock);
	}

	/** {@code held} as work on another thread sees it. */
	static HeldLock view(HeldLock held) {
		if (held.handle() instanceof HandedOverLockHandle) {
			return held;
		}
		return new HeldLock(held.owner(), new HandedOverLockHandle(held.handle()), held.keys(), held.share());
	}

	@Override
	public boolean extend(Duration ttl) {
		throw refused("extended");
	}

	@Override
	public LockHandle hold() {
		throw refused("held again");
	}

	@Override
	public void close() {
	}

	private IllegalStateException refused(String action) {
		return new IllegalStateException("Lock '" + KeyMasking.mask(key()) + "' was handed to this thread with "
				+ "the work of the call that holds it, and can be " + action + " only by that call: take a hold() "
				+ "there and hand it to the work that has to keep the lock");
	}

}
