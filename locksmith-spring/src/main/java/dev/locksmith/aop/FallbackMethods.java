package dev.locksmith.aop;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;
import org.springframework.core.KotlinDetector;
import org.springframework.util.ReflectionUtils;

import dev.locksmith.annotation.DistributedLock;
import dev.locksmith.annotation.OnBusy;
import dev.locksmith.core.LockBusyException;

/**
 * Finds the {@code fallbackMethod} that a {@code @DistributedLock} names, at startup: a method of the
 * bean's class (or a superclass) with the annotated method's parameters, optionally followed by a
 * {@link LockBusyException}, returning its type. A mistake names both methods.
 */
final class FallbackMethods {

	private FallbackMethods() {
	}

	/**
	 * The fallback of {@code method}, or {@code null} when the annotation names none.
	 * @throws LockDeclarationException when it is missing, does not fit, or the policy is {@link OnBusy#SKIP}
	 */
	static @Nullable LockFallback find(String where, DistributedLock annotation, Method method,
			Class<?> targetClass) {
		String name = annotation.fallbackMethod();
		if (name.isBlank()) {
			return null;
		}
		if (KotlinDetector.isSuspendingFunction(method)) {
			throw new LockDeclarationException(where, "fallbackMethod '" + name + "' cannot serve a suspend fun; "
					+ "catch LockBusyException in the caller instead", null);
		}
		String wanted = wanted(name, method);
		if (annotation.onBusy() == OnBusy.SKIP) {
			throw new LockDeclarationException(where, "fallbackMethod " + wanted + " cannot be combined with "
					+ "onBusy = SKIP; remove one of them", null);
		}
		List<Method> candidates = new ArrayList<>();
		ReflectionUtils.doWithMethods(targetClass, candidates::add, (candidate) -> candidate.getName().equals(name));
		for (Method candidate : candidates) {
			LockFallback fallback = fitting(candidate, method);
			if (fallback != null) {
				return fallback;
			}
		}
		String found = candidates.isEmpty() ? "there is no method " + name + " in " + targetClass.getSimpleName()
				: "found only " + candidates.stream()
					.map((candidate) -> LockDefinitions.describe(candidate, targetClass) + " returning "
							+ candidate.getReturnType().getSimpleName())
					.collect(Collectors.joining(", "));
		throw new LockDeclarationException(where, "fallbackMethod needs " + wanted + ", but " + found, null);
	}

	private static @Nullable LockFallback fitting(Method candidate, Method method) {
		if (!method.getReturnType().isAssignableFrom(candidate.getReturnType())) {
			return null;
		}
		Class<?>[] expected = method.getParameterTypes();
		Class<?>[] actual = candidate.getParameterTypes();
		if (Arrays.equals(expected, actual)) {
			return new LockFallback(candidate, false);
		}
		boolean withException = actual.length == expected.length + 1
				&& Arrays.equals(expected, Arrays.copyOf(actual, expected.length))
				&& actual[expected.length].isAssignableFrom(LockBusyException.class);
		return withException ? new LockFallback(candidate, true) : null;
	}

	/** The fallback's signature as the annotated method needs it: {@code String reserveLater(String[, LockBusyException])}. */
	private static String wanted(String name, Method method) {
		String parameters = LockDefinitions.parameterTypes(method);
		String separator = parameters.isEmpty() ? "" : ", ";
		return method.getReturnType().getSimpleName() + " " + name + "(" + parameters + "[" + separator
				+ "LockBusyException])";
	}

}
