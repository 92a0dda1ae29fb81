package dev.locksmith.aop;

import java.util.ArrayList;
import java.util.List;

import org.aopalliance.intercept.MethodInvocation;
import org.reactivestreams.Publisher;
import org.springframework.core.ReactiveAdapter;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.SignalType;
import reactor.core.scheduler.Schedulers;
import reactor.util.context.ContextView;

import dev.locksmith.core.HeldLock;
import dev.locksmith.core.LockContext;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockedCalls;
import dev.locksmith.core.ReactiveLockContext;
import dev.locksmith.core.ReactiveLockFrames;

/**
 * Holds a lock for as long as the subscription to a reactive result runs: a single-value result
 * ({@code Mono}, RxJava's {@code Single}, ...) is locked as a {@code Mono}, any other as a {@code Flux},
 * and handed back as the method's own type by its {@link ReactiveAdapter}. Keys that the
 * subscriber's Reactor context (or the subscribing thread) already holds get one more hold; the rest
 * are acquired on a blocking-friendly scheduler, never on the subscriber's non-blocking thread. The
 * lock is released when the result completes, fails or is cancelled, also when a cancel drops a
 * granted handle before it reached the pipeline. The method runs with its lock in the Reactor context
 * ({@link ReactiveLockContext}) and, while it assembles its result, in {@link LockContext}. A lease
 * found lost cancels the method's publisher and ends the result with {@code LockLostException}. A lock
 * that stays busy under {@code SKIP} gives an empty result; with a fallback method, the fallback's.
 */
final class ReactiveLocking {

	private final DistributedLockInterceptor interceptor;

	ReactiveLocking(DistributedLockInterceptor interceptor) {
		this.interceptor = interceptor;
	}

	Object lock(MethodInvocation invocation, LockDefinition definition, List<String> keys, ReactiveAdapter adapter) {
		return adapter.fromPublisher(adapter.isMultiValue() ? lockMany(invocation, definition, keys, adapter)
				: lockOne(invocation, definition, keys, adapter));
	}

	private Mono<?> lockOne(MethodInvocation invocation, LockDefinition definition, List<String> keys,
			ReactiveAdapter adapter) {
		return Mono.deferContextual((context) -> {
			LockedCalls.Call call = this.interceptor.call(definition, keys);
			SubscriptionLock lock = new SubscriptionLock();
			BusyFallback fallback = new BusyFallback(invocation, definition, adapter);
			return Mono.usingWhen(fallback.onBusy(acquire(call, definition, context, lock)), (handle) -> {
				HeldLock held = this.interceptor.calls().heldLock(call, handle);
				return Mono.from(assemble(invocation, call, handle, adapter))
					.takeUntilOther(lost(handle))
					.flatMap((value) -> stillHeld(call, handle).thenReturn(value))
					.switchIfEmpty(stillHeld(call, handle).then(Mono.empty()))
					.contextWrite((inner) -> ReactiveLockFrames.with(inner, held));
			}, this::release)
				.doFinally((signal) -> endOnCancel(signal, lock))
				.switchIfEmpty(Mono.defer(() -> Mono.from(fallback.result())));
		});
	}

	private Flux<?> lockMany(MethodInvocation invocation, LockDefinition definition, List<String> keys,
			ReactiveAdapter adapter) {
		return Flux.deferContextual((context) -> {
			LockedCalls.Call call = this.interceptor.call(definition, keys);
			SubscriptionLock lock = new SubscriptionLock();
			BusyFallback fallback = new BusyFallback(invocation, definition, adapter);
			return Flux.usingWhen(fallback.onBusy(acquire(call, definition, context, lock)), (handle) -> {
				HeldLock held = this.interceptor.calls().heldLock(call, handle);
				return Flux.<Object>from(assemble(invocation, call, handle, adapter))
					.takeUntilOther(lost(handle))
					.concatWith(stillHeld(call, handle).then(Mono.empty()))
					.contextWrite((inner) -> ReactiveLockFrames.with(inner, held));
			}, this::release)
				.doFinally((signal) -> endOnCancel(signal, lock))
				.concatWith(Flux.defer(() -> Flux.from(fallback.result())));
		});
	}

	private Mono<LockHandle> acquire(LockedCalls.Call call, LockDefinition definition, ContextView context,
			SubscriptionLock lock) {
		List<HeldLock> held = new ArrayList<>(LockedCalls.held());
		held.addAll(ReactiveLockFrames.held(context));
		Mono<LockHandle> acquire = Mono
			.fromCallable(() -> lock.acquire(() -> this.interceptor.acquire(call, definition, held)));
		return this.interceptor.calls().needsRoundTrip(call, held)
				? acquire.subscribeOn(Schedulers.boundedElastic()) : acquire;
	}

	/** Calls the method, which assembles its result while its lock is the current one of this thread. */
	private Publisher<?> assemble(MethodInvocation invocation, LockedCalls.Call call, LockHandle handle,
			ReactiveAdapter adapter) {
		try (LockedCalls.Scope scope = this.interceptor.calls().enter(call, handle)) {
			return proceed(invocation, adapter);
		}
	}

	private Publisher<?> proceed(MethodInvocation invocation, ReactiveAdapter adapter) {
		try {
			Object result = invocation.proceed();
			return (result != null) ? adapter.toPublisher(result) : Mono.empty();
		}
		catch (Throwable ex) {
			return Mono.error(ex);
		}
	}

	/** Signals when the engine finds the lease lost: the result then stops, cancelling its upstream. */
	private static Mono<Void> lost(LockHandle handle) {
		return Mono.fromCompletionStage(handle.lost());
	}

	private Mono<Void> stillHeld(LockedCalls.Call call, LockHandle handle) {
		return Mono.fromRunnable(() -> LockedCalls.requireHeld(call, handle));
	}

	private Mono<Void> release(LockHandle handle) {
		return Mono.<Void>fromRunnable(handle::close).subscribeOn(Schedulers.boundedElastic());
	}

	private void endOnCancel(SignalType signal, SubscriptionLock lock) {
		if (signal == SignalType.CANCEL) {
			Schedulers.boundedElastic().schedule(lock::end);
		}
	}

}
