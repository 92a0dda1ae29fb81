package dev.locksmith.aop;

import java.lang.reflect.Method;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.support.AopUtils;
import org.springframework.core.ReactiveAdapter;
import org.springframework.expression.BeanResolver;

import dev.locksmith.annotation.OnBusy;
import dev.locksmith.core.HeldLock;
import dev.locksmith.core.LockBusyException;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockLostException;
import dev.locksmith.core.LockService;
import dev.locksmith.core.LockedCalls;

/**
 * Runs a {@code @DistributedLock} method under its lock: resolves the keys, gives a nested call on
 * keys the running call already holds one more hold without another round trip, and for
 * {@link CompletionStage} and reactive results ({@code Mono}, {@code Flux} and every type Spring's
 * {@code ReactiveAdapterRegistry} adapts) keeps its hold until the method's own work completes. A lock that stays busy calls the declared
 * fallback method instead, if any. Acquiring, holding again and entering the lock are the engine's
 * ({@link LockedCalls}), as for {@code LockService#callLocked}: a skip is logged here, at DEBUG with the lock's
 * name, never its key; an unavailable store there, once per lock name and outage, on this class's logger.
 */
final class DistributedLockInterceptor implements MethodInterceptor {

	private static final Log logger = LogFactory.getLog(DistributedLockInterceptor.class);

	private final Supplier<LockService> locks;

	private final LockDefinitions definitions;

	private final LockKeyResolver keyResolver;

	private final LockedCalls calls = new LockedCalls(System.getLogger(DistributedLockInterceptor.class.getName()));

	private final @Nullable ReactiveLocking reactiveLocking;

	DistributedLockInterceptor(Supplier<LockService> locks, LockDefinitions definitions,
			@Nullable BeanResolver beans) {
		this.locks = locks;
		this.definitions = definitions;
		this.keyResolver = new LockKeyResolver(beans);
		this.reactiveLocking = ReactiveResults.REACTOR_PRESENT ? new ReactiveLocking(this) : null;
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
		LockedCalls.Call call = call(definition, keys);
		LockHandle handle;
		try {
			handle = acquire(call, definition, LockedCalls.held());
		}
		catch (LockBusyException ex) {
			return fallBack(invocation, definition, ex);
		}
		if (handle == null) {
			return (invocation.getMethod().getReturnType() == Optional.class) ? Optional.empty() : null;
		}
		try (handle; LockedCalls.Scope scope = this.calls.enter(call, handle)) {
			Object result = invocation.proceed();
			LockedCalls.requireHeld(call, handle);
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
		LockedCalls.Call call;
		LockHandle handle;
		try {
			call = call(definition, keys);
			handle = acquire(call, definition, LockedCalls.held());
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
		try (LockedCalls.Scope scope = this.calls.enter(call, handle)) {
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

	/** The locked call of the method of {@code definition} for {@code keys}. */
	LockedCalls.Call call(LockDefinition definition, List<String> keys) {
		return new LockedCalls.Call(this.locks.get(), keys, definition.options(), definition.method(),
				definition.method(), definition.onBusy() == OnBusy.SKIP);
	}

	/** The engine behind this aspect's locked calls. */
	LockedCalls calls() {
		return this.calls;
	}

	/**
	 * The handle for all keys of {@code call}, holding again what the {@code held} locks hold, or {@code null}
	 * when the missing keys stayed busy and the method skips then.
	 * @throws LockBusyException when the missing keys stayed busy and the method does not skip
	 */
	@Nullable LockHandle acquire(LockedCalls.Call call, LockDefinition definition, List<HeldLock> held) {
		LockHandle handle;
		try {
			handle = this.calls.acquire(call, held);
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException("@DistributedLock on " + definition.method() + ": key expression '"
					+ definition.keySource() + "' gave a key the lock service refuses: " + ex.getMessage()
					+ "; the method was not run", ex);
		}
		if (handle == null && logger.isDebugEnabled()) {
			logger.debug("Skipped " + definition.method() + ": lock '" + definition.name() + "' is busy");
		}
		return handle;
	}

}
