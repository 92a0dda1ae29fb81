package dev.locksmith.aop;

import java.util.List;

import org.aopalliance.intercept.MethodInvocation;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import dev.locksmith.core.LockHandle;

/**
 * Holds a lock for as long as a {@code Mono} or {@code Flux} runs: acquired on subscription on a
 * blocking-friendly scheduler (never on the subscriber's non-blocking thread), released when the
 * result completes, fails or is cancelled. A lock that stays busy under {@code SKIP} gives an empty
 * result.
 */
final class ReactiveLocking {

	private final LockAcquisition acquisition;

	ReactiveLocking(LockAcquisition acquisition) {
		this.acquisition = acquisition;
	}

	static boolean isReactive(Class<?> type) {
		return Mono.class.isAssignableFrom(type) || Flux.class.isAssignableFrom(type);
	}

	Publisher<?> lock(MethodInvocation invocation, LockDefinition definition, List<String> keys) {
		Mono<LockHandle> acquire = Mono.fromCallable(() -> this.acquisition.acquire(definition, keys))
			.subscribeOn(Schedulers.boundedElastic());
		if (Mono.class.isAssignableFrom(invocation.getMethod().getReturnType())) {
			return Mono.usingWhen(acquire,
					(handle) -> Mono.from(proceed(invocation)).flatMap((value) -> stillHeld(handle).thenReturn(value))
						.switchIfEmpty(stillHeld(handle).then(Mono.empty())),
					this::release);
		}
		return Flux.usingWhen(acquire,
				(handle) -> Flux.from(proceed(invocation)).concatWith(stillHeld(handle).then(Mono.empty())),
				this::release);
	}

	private Publisher<?> proceed(MethodInvocation invocation) {
		try {
			Publisher<?> result = (Publisher<?>) invocation.proceed();
			return (result != null) ? result : Mono.empty();
		}
		catch (Throwable ex) {
			return Mono.error(ex);
		}
	}

	private Mono<Void> stillHeld(LockHandle handle) {
		return Mono.fromRunnable(() -> DistributedLockInterceptor.requireHeld(handle));
	}

	private Mono<Void> release(LockHandle handle) {
		return Mono.<Void>fromRunnable(handle::close).subscribeOn(Schedulers.boundedElastic());
	}

}
