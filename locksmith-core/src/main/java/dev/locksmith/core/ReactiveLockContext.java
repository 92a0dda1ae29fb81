package dev.locksmith.core;

import java.util.List;

import reactor.core.publisher.Mono;

/**
 * The lock that a {@code Mono} or {@code Flux} runs under, read from its Reactor context: the reactive
 * sibling of {@link LockContext}, for code that runs inside operators on any thread.
 *
 * @since 0.1.0
 */
public final class ReactiveLockContext {

	private ReactiveLockContext() {
	}

	/** The innermost lock that the subscribing pipeline runs under, or empty outside a locked method. */
	public static Mono<LockHandle> current() {
		return Mono.deferContextual((context) -> {
			List<HeldLock> held = ReactiveLockFrames.held(context);
			return held.isEmpty() ? Mono.empty() : Mono.just(held.get(held.size() - 1).handle());
		});
	}

}
