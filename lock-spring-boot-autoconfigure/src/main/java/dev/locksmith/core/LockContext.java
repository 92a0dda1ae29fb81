package dev.locksmith.core;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

/**
 * The locks that the running call holds on this thread, innermost last: gives annotated code its
 * {@link LockHandle} (and fencing token), and tells the aspect which keys a nested call already holds.
 * Inside operators of a {@code Mono} or {@code Flux}, use {@link ReactiveLockContext} instead.
 *
 * @since 0.1.0
 */
public final class LockContext {

	private static final ThreadLocal<Deque<HeldLock>> frames = new ThreadLocal<>();

	private LockContext() {
	}

	/** The innermost lock held by the running call on this thread. */
	public static Optional<LockHandle> current() {
		Deque<HeldLock> held = frames.get();
		return (held != null) ? Optional.of(held.getLast().handle()) : Optional.empty();
	}

	/** Every lock held by the running calls on this thread, outermost first. */
	public static List<HeldLock> held() {
		Deque<HeldLock> held = frames.get();
		return (held != null) ? List.copyOf(held) : List.of();
	}

	/**
	 * Makes {@code lock} the current lock of this thread until the returned scope is closed; for
	 * integrations such as the {@code @DistributedLock} aspect.
	 * @param lock the lock the running call holds
	 * @param holder what holds it, for operators (such as the annotated method), or {@code null}
	 */
	public static Scope enter(HeldLock lock, @Nullable String holder) {
		if (holder != null) {
			describeHolder(lock.handle(), holder);
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

	private static void describeHolder(LockHandle handle, String holder) {
		if (handle instanceof DefaultLockHandle lock) {
			lock.describeHolder(holder);
		}
		else if (handle instanceof AddedHold hold) {
			hold.lock().describeHolder(holder);
		}
	}

	/** Ends a lock's time as the current one. */
	@FunctionalInterface
	public interface Scope extends AutoCloseable {

		@Override
		void close();

	}

}
