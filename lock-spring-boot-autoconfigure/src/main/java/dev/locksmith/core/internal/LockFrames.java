package dev.locksmith.core.internal;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

/**
 * The locks held by the running calls of this thread, innermost last: the state behind
 * {@code LockContext}, pushed and popped by Locksmith's aspect and {@code LockService#callLocked}.
 */
public final class LockFrames {

	private static final ThreadLocal<Deque<HeldLock>> frames = new ThreadLocal<>();

	private LockFrames() {
	}

	/** The innermost lock held by the running call on this thread. */
	public static Optional<HeldLock> innermost() {
		Deque<HeldLock> held = frames.get();
		return (held != null) ? Optional.of(held.getLast()) : Optional.empty();
	}

	/** Every lock held by the running calls on this thread, outermost first. */
	public static List<HeldLock> held() {
		Deque<HeldLock> held = frames.get();
		return (held != null) ? List.copyOf(held) : List.of();
	}

	/**
	 * Makes {@code lock} the innermost lock of this thread until the returned scope is closed.
	 * @param lock the lock the running call holds
	 * @param holder what holds it, shown to operators (such as the annotated method), or {@code null}
	 */
	public static Scope enter(HeldLock lock, @Nullable String holder) {
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

	/** Ends a lock's time as the innermost one. */
	@FunctionalInterface
	public interface Scope extends AutoCloseable {

		@Override
		void close();

	}

}
