package dev.locksmith.core;

import java.util.ArrayList;
import java.util.List;

import reactor.util.context.Context;
import reactor.util.context.ContextView;

/**
 * The locks that a {@code Mono} or {@code Flux} runs under, carried in its Reactor {@link Context},
 * innermost last: the state behind {@code ReactiveLockContext}.
 */
public final class ReactiveLockFrames {

	private static final String CONTEXT_KEY = ReactiveLockFrames.class.getName();

	private ReactiveLockFrames() {
	}

	/** Every lock that {@code context} carries, outermost first. */
	public static List<HeldLock> held(ContextView context) {
		return context.getOrDefault(CONTEXT_KEY, List.of());
	}

	/**
	 * {@code context} with {@code lock} added as its innermost lock; also under the key of
	 * {@link LockContextAccessor}, which shows it to {@code LockContext} in operators on any thread when
	 * Reactor propagates its context to thread locals.
	 */
	public static Context with(Context context, HeldLock lock) {
		List<HeldLock> held = new ArrayList<>(held(context));
		held.add(lock);
		return context.put(CONTEXT_KEY, List.copyOf(held)).put(LockContextAccessor.KEY, lock);
	}

}
