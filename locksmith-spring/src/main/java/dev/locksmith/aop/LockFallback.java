package dev.locksmith.aop;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;

import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.springframework.util.ReflectionUtils;

import dev.locksmith.core.LockBusyException;

/**
 * The {@code fallbackMethod} of a {@code @DistributedLock}: called on the same target with the call's
 * arguments, and the {@link LockBusyException} when it asks for one, when the lock stays busy.
 *
 * @param method the fallback method, made accessible
 * @param takesException whether its last parameter receives the {@link LockBusyException}
 */
record LockFallback(Method method, boolean takesException) {

	LockFallback {
		ReflectionUtils.makeAccessible(method);
	}

	/** Calls the fallback on the target of {@code invocation}, with its arguments; what it throws is thrown as is. */
	@Nullable Object call(MethodInvocation invocation, LockBusyException busy) throws Throwable {
		Object[] arguments = invocation.getArguments();
		Object[] passed = arguments;
		if (this.takesException) {
			passed = Arrays.copyOf(arguments, arguments.length + 1);
			passed[arguments.length] = busy;
		}
		try {
			return this.method.invoke(invocation.getThis(), passed);
		}
		catch (InvocationTargetException ex) {
			throw ex.getTargetException();
		}
	}

}
