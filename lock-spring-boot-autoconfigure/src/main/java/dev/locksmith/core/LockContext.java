package dev.locksmith.core;

import java.util.Optional;

import dev.locksmith.core.internal.HeldLock;
import dev.locksmith.core.internal.LockFrames;

/**
 * The lock that the running call holds on this thread: gives annotated code and the action of
 * {@link LockService#callLocked} its {@link LockHandle} (and fencing token). Inside operators of a
 * {@code Mono} or {@code Flux}, use {@link ReactiveLockContext} instead.
 *
 * @since 0.1.0
 */
public final class LockContext {

	private LockContext() {
	}

	/** The innermost lock held by the running call on this thread. */
	public static Optional<LockHandle> current() {
		return LockFrames.innermost().map(HeldLock::handle);
	}

}
