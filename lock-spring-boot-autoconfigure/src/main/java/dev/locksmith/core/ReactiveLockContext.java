package dev.locksmith.core;

import java.util.ArrayList;
import java.util.List;

import reactor.core.publisher.Mono;
import reactor.util.context.Context;
import reactor.util.context.ContextView;

/**
 * The locks that a {@code Mono} or {@code Flux} runs under, carried in its Reactor {@link Context}:
 * the reactive sibling of {@link LockContext}, for code that runs inside operators on any thread.
 *
 * @since 0.1.0
 */
public final class ReactiveLockContext {

	private static final String CONTEXT_KEY = ReactiveLockContext.class.getName();

	private ReactiveLockContext() {
	}

	/** The innermost lock that the subscribing pipeline runs under, or empty outside a locked method. */
	public static Mono<LockHandle> current() {
		return Mono.deferContextual((context) -> {
			List<HeldLock> held = held(context);
			return held.isEmpty() ? Mono.empty() : Mono.just(held.get(held.size() - 1).handle());
		});
	}

	/** Every lock that {@code context} carries, outermost first; for integrations such as the aspect. */
	public static List<HeldLock> held(ContextView context) {
		return context.getOrDefault(CONTEXT_KEY, List.of());
	}

	/** {@code context} with {@code lock} added as its innermost lock; for integrations such as the aspect. */
	public static Context with(Context context, HeldLock lock) {
		List<HeldLock> held = new ArrayList<>(held(context));
		held.add(lock);
		return context.put(CONTEXT_KEY, List.copyOf(held));
	}

}
