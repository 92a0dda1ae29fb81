package dev.locksmith.aop;

import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import org.springframework.core.ReactiveAdapter;
import reactor.core.publisher.Mono;

import dev.locksmith.core.LockBusyException;
import dev.locksmith.core.LockHandle;

/**
 * The fallback of one reactive subscription: when its acquisition finds the lock busy, the
 * acquisition ends empty and the fallback method's publisher stands in for the result. Errors of the
 * method's own publisher never reach the fallback.
 */
final class BusyFallback {

	private final MethodInvocation invocation;

	private final @Nullable LockFallback fallback;

	private volatile @Nullable Publisher<?> result;

	private final ReactiveAdapter adapter;

	BusyFallback(MethodInvocation invocation, LockDefinition definition, ReactiveAdapter adapter) {
		this.invocation = invocation;
		this.fallback = definition.fallback();
		this.adapter = adapter;
	}

	/** The acquisition, ending empty instead of busy when there is a fallback. */
	Mono<LockHandle> onBusy(Mono<LockHandle> acquisition) {
		LockFallback fallback = this.fallback;
		if (fallback == null) {
			return acquisition;
		}
		return acquisition.onErrorResume(LockBusyException.class, (busy) -> {
			this.result = call(fallback, busy);
			return Mono.empty();
		});
	}

	/** The fallback's publisher when the lock was busy, else empty. */
	Publisher<?> result() {
		Publisher<?> result = this.result;
		return (result != null) ? result : Mono.empty();
	}

	private Publisher<?> call(LockFallback fallback, LockBusyException busy) {
		try {
			Object result = fallback.call(this.invocation, busy);
			return (result != null) ? this.adapter.toPublisher(result) : Mono.empty();
		}
		catch (Throwable ex) {
			return Mono.error(ex);
		}
	}

}
