package dev.locksmith.core;

import java.util.Optional;

/**
 * The lock that the running call holds on this thread: gives annotated code and the action of
 * {@link LockService#callLocked} its {@link LockHandle} (and fencing token). Inside operators of a
 * {@code Mono} or {@code Flux}, use {@link ReactiveLockContext} instead. With Micrometer's
 * context-propagation on the class path, work that the call hands to another thread (a task of an executor
 * decorated by Spring's {@code ContextPropagatingTaskDecorator}, a Reactor operator under automatic
 * context propagation) sees the call's lock too, as a handle that cannot extend, hold again or release it.
 *
 * @since 0.1.0
 */
public final class LockContext {

	private LockContext() {
	}

	/** The innermost lock held by the running call on this thread, or handed to this thread with its work. */
	public static Optional<LockHandle> current() {
		return LockFrames.innermost().map(HeldLock::handle);
	}

}
