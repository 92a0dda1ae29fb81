package dev.locksmith.core;

import io.micrometer.context.ThreadLocalAccessor;
import org.jspecify.annotations.Nullable;

/**
 * Carries {@code LockContext} into work handed to another thread through Micrometer's context propagation:
 * a task decorated by Spring's {@code ContextPropagatingTaskDecorator}, or a Reactor operator under
 * {@code Hooks.enableAutomaticContextPropagation()}, also one inside a locked {@code Mono} or {@code Flux}
 * (see {@link ReactiveLockFrames}). The work sees the lock of the call that handed it
 * over as a view that never holds, extends or releases that lock (see {@link HandedOverLockHandle}).
 * Found by {@code ServiceLoader}, which is why it is public.
 */
public final class LockContextAccessor implements ThreadLocalAccessor<HeldLock> {

	/** The key of the lock in context snapshots, and in the Reactor context of a locked {@code Mono} or {@code Flux}. */
	static final String KEY = "dev.locksmith.lock-context";

	@Override
	public Object key() {
		return KEY;
	}

	@Override
	public @Nullable HeldLock getValue() {
		return LockFrames.innermost().orElse(null);
	}

	@Override
	public void setValue(HeldLock lock) {
		LockFrames.handOver(HandedOverLockHandle.view(lock));
	}

	@Override
	public void setValue() {
		LockFrames.handOver(null);
	}

}
