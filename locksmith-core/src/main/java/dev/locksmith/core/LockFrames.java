package dev.locksmith.core;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

/**
 * The locks held by the running calls of this thread, innermost last: the state behind
 * {@code LockContext}, pushed and popped by Locksmith's aspect and {@code LockService#callLocked}.
 * Work handed to this thread by a locked call sees that call's lock as well (see {@link LockContextAccessor}).
 */
final class LockFrames {

	private static final ThreadLocal<Deque<HeldLock>> frames = new ThreadLocal<>();

	private static final ThreadLocal<HeldLock> handedOver = new ThreadLocal<>();

	private LockFrames() {
	}

	/**
	 * The innermost lock held by the running call on this thread or, when it holds none, the lock of the
	 * call that handed its work to this thread.
	 */
	static Optional<HeldLock> innermost() {
		Deque<HeldLock> held = frames.get();
		return (held != null) ? Optional.of(held.getLast()) : Optional.ofNullable(handedOver.get());
	}

	/**
	 * Every lock held by the running calls on this thread, outermost first; never a lock handed over
	 * with other work, which a nested call does not hold again.
	 */
	static List<HeldLock> held() {
		Deque<HeldLock> held = frames.get();
		return (held != null) ? List.copyOf(held) : List.of();
	}

	/**
	 * Makes {@code lock} the innermost lock of this thread until the returned scope is closed.
	 * @param lock the lock the running call holds
	 * @param holder what holds it, shown to operators (such as the annotated method), or {@code null}
	 */
	static LockedCalls.Scope enter(HeldLock lock, @Nullable String holder) {
		if (holder != null && lock.handle() instanceof HolderAware handle) {
			handle.describeHolder(holder);
		}
		Deque<HeldLock> held = frames.get();
		if (held == null) {
			held = new ArrayDeque<>();
			frames.set(held);
		}
		held.addLast(lock);
		return () -> {
			Deque<HeldLock> current = frames.get();
			if (current != null && current.removeLastOccurrence(lock) && current.isEmpty()) {
				frames.remove();
			}
		};
	}

	/**
	 * Makes {@code lock}, held by the call that handed work to this thread, what this thread's
	 * {@code LockContext} shows while it holds no lock of its own; {@code null} forgets it.
	 */
	static void handOver(@Nullable HeldLock lock) {
		if (lock != null) {
			handedOver.set(lock);
		}
		else {
			handedOver.remove();
		}
	}

}
