package dev.locksmith.aop;

import java.lang.reflect.Method;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.support.AopUtils;
import org.springframework.core.ReactiveAdapter;
import org.springframework.expression.BeanResolver;

import dev.locksmith.core.LockBusyException;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockLostException;
import dev.locksmith.core.LockService;
import dev.locksmith.core.internal.LockFrames;

/**
 * Runs a {@code @DistributedLock} method under its lock: resolves the keys, gives a nested call on
 * keys the running call already holds one more hold without another round trip, and for
 * {@link CompletionStage} and reactive results ({@code Mono}, {@code Flux} and every type Spring's
 * {@code ReactiveAdapterRegistry} adapts) keeps its hold until the method's own work completes. A lock that stays busy calls the declared
 * fallback method instead, if any.
 */
final class DistributedLockInterceptor implements MethodInterceptor {

	private final LockDefinitions definitions;

	private final LockKeyResolver keyResolver;

	private final LockAcquisition acquisition;

	private final @Nullable ReactiveLocking reactiveLocking;

	DistributedLockInterceptor(Supplier<LockService> locks, LockDefinitions definitions,
			@Nullable BeanResolver beans) {
		this.definitions = definitions;
		this.keyResolver = new LockKeyResolver(beans);
		this.acquisition = new LockAcquisition(locks);
		this.reactiveLocking = ReactiveResults.REACTOR_PRESENT ? new ReactiveLocking(this.acquisition) : null;
	}

	@Override
	public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
		Method method = invocation.getMethod();
		Object target = invocation.getThis();
		Class<?> targetClass = (target != null) ? AopUtils.getTargetClass(target) : method.getDeclaringClass();
		LockDefinition definition = this.definitions.find(method, targetClass);
		if (definition == null) {
			return invocation.proceed();
		}
		List<String> keys = this.keyResolver.resolve(definition, method, invocation.getArguments(), target);
		ReactiveAdapter adapter = definition.reactiveAdapter();
		if (adapter != null && this.reactiveLocking != null) {
			return this.reactiveLocking.lock(invocation, definition, keys, adapter);
		}
		if (CompletionStage.class.isAssignableFrom(method.getReturnType())) {
			return lockUntilComplete(invocation, definition, keys);
		}
		return lockDuringCall(invocation, definition, keys);
	}

	private @Nullable Object lockDuringCall(MethodInvocation invocation, LockDefinition definition, List<String> keys)
			throws Throwable {
		LockHandle handle;
		try {
			handle = this.acquisition.acquire(definition, keys, LockFrames.held());
		}
		catch (LockBusyException ex) {
			return fallBack(invocation, definition, ex);
		}
		if (handle == null) {
			return (invocation.getMethod().getReturnType() == Optional.class) ? Optional.empty() : null;
		}
		try (handle; LockFrames.Scope scope = this.acquisition.enter(handle, definition, keys)) {
			Object result = invocation.proceed();
			requireHeld(definition, handle);
			return result;
		}
	}

	/**
	 * Holds the lock until the stage that the method returned completes. The caller gets a dependent
	 * future: completing, cancelling or timing it out ends the caller's wait, never the lock of the
	 * work that still runs.
	 */
	private @Nullable Object lockUntilComplete(MethodInvocation invocation, LockDefinition definition,
			List<String> keys) throws Throwable {
		LockHandle handle;
		try {
			handle = this.acquisition.acquire(definition, keys, LockFrames.held());
		}
		catch (LockBusyException ex) {
			return (definition.fallback() != null) ? fallBack(invocation, definition, ex)
					: CompletableFuture.failedFuture(ex);
		}
		catch (RuntimeException ex) {
			return CompletableFuture.failedFuture(ex);
		}
		if (handle == null) {
			return CompletableFuture.completedFuture(null);
		}
		CompletionStage<?> stage;
		try (LockFrames.Scope scope = this.acquisition.enter(handle, definition, keys)) {
			stage = (CompletionStage<?>) invocation.proceed();
		}
		catch (Throwable ex) {
			handle.close();
			throw ex;
		}
		if (stage == null) {
			handle.close();
			return null;
		}
		CompletableFuture<Object> result = new CompletableFuture<>();
		stage.whenComplete((value, failure) -> {
			boolean lost = !handle.isHeld();
			handle.close();
			if (failure != null) {
				result.completeExceptionally(failure);
			}
			else if (lost) {
				result.completeExceptionally(new LockLostException(definition.name(), handle));
			}
			else {
				result.complete(value);
			}
		});
		return result;
	}

	/** The fallback's result for a lock that stayed busy; without a fallback, the busy exception. */
	private static @Nullable Object fallBack(MethodInvocation invocation, LockDefinition definition,
			LockBusyException busy) throws Throwable {
		LockFallback fallback = definition.fallback();
		if (fallback == null) {
			throw busy;
		}
		return fallback.call(invocation, busy);
	}

	static void requireHeld(LockDefinition definition, LockHandle handle) {
		if (!handle.isHeld()) {
			throw new LockLostException(definition.name(), handle);
		}
	}

}
