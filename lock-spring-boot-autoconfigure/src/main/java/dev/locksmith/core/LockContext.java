package dev.locksmith.core;

import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import org.jspecify.annotations.Nullable;

/**
 * The locks that the running call holds on this thread, innermost last: gives annotated code its
 * {@link LockHandle} (and fencing token), and tells the aspect when a nested call is reentrant.
 *
 * @since 0.1.0
 */
public final class LockContext {

	private static final ThreadLocal<Deque<Frame>> frames = ThreadLocal.withInitial(ArrayDeque::new);

	private static final Map<String, String> holders = new ConcurrentHashMap<>();

	private LockContext() {
	}

	/** The innermost lock held by the running call on this thread. */
	public static Optional<LockHandle> current() {
		Frame innermost = frames.get().peekLast();
		return (innermost != null) ? Optional.of(innermost.handle) : Optional.empty();
	}

	/** Every lock held by the running calls on this thread, outermost first. */
	public static List<LockHandle> held() {
		return frames.get().stream().map(Frame::handle).toList();
	}

	/** Whether this thread's running calls already hold every one of {@code keys}. */
	public static boolean holdsAll(Collection<String> keys) {
		Deque<Frame> held = frames.get();
		return !held.isEmpty() && keys.stream().allMatch((key) -> held.stream().anyMatch((frame) -> frame.keys.contains(key)));
	}

	/**
	 * Makes {@code handle} the current lock of this thread until the returned scope is closed; for
	 * integrations such as the {@code @DistributedLock} aspect.
	 * @param handle the lock the running call holds
	 * @param keys the keys that the handle holds
	 * @param holder what holds it, for operators (such as the annotated method), or {@code null}
	 */
	public static Scope enter(LockHandle handle, List<String> keys, @Nullable String holder) {
		Frame frame = new Frame(handle, List.copyOf(keys));
		frames.get().addLast(frame);
		if (holder != null) {
			keys.forEach((key) -> holders.put(key, holder));
		}
		return () -> {
			if (holder != null) {
				keys.forEach((key) -> holders.remove(key, holder));
			}
			Deque<Frame> held = frames.get();
			held.removeLastOccurrence(frame);
			if (held.isEmpty()) {
				frames.remove();
			}
		};
	}

	/** What holds the lock of {@code key} in this process, as given to {@link #enter}, while its scope is open. */
	static @Nullable String holderOf(String key) {
		return holders.get(key);
	}

	/** Ends a lock's time as the current one. */
	@FunctionalInterface
	public interface Scope extends AutoCloseable {

		@Override
		void close();

	}

	private record Frame(LockHandle handle, List<String> keys) {
	}

}
