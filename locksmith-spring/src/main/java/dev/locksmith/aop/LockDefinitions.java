package dev.locksmith.aop;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;
import org.springframework.aop.support.AopUtils;
import org.springframework.core.MethodClassKey;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.expression.Expression;
import org.springframework.expression.ParseException;
import org.springframework.expression.spel.standard.SpelExpressionParser;
import org.springframework.format.datetime.standard.DurationFormatterUtils;
import org.springframework.util.ClassUtils;
import org.springframework.util.StringValueResolver;

import dev.locksmith.annotation.DistributedLock;
import dev.locksmith.annotation.OnBusy;
import dev.locksmith.core.LockOptions;

/**
 * Finds the {@code @DistributedLock} of a method, parses it once (placeholders, durations, the key
 * expression) and caches the result. Every mistake is reported with the method and the offending
 * value, so that it can stop the application at startup.
 */
final class LockDefinitions {

	private final SpelExpressionParser parser = new SpelExpressionParser();

	private final KeyExpressionVariables keyVariables = new KeyExpressionVariables();

	private final Map<MethodClassKey, Optional<LockDefinition>> cache = new ConcurrentHashMap<>();

	private final StringValueResolver placeholders;

	private final Supplier<Duration> defaultTtl;

	private final Supplier<Duration> defaultWaitTime;

	LockDefinitions(StringValueResolver placeholders, Supplier<Duration> defaultTtl,
			Supplier<Duration> defaultWaitTime) {
		this.placeholders = placeholders;
		this.defaultTtl = defaultTtl;
		this.defaultWaitTime = defaultWaitTime;
	}

	/**
	 * The lock declared on {@code method} as invoked on {@code targetClass}, or {@code null} when none.
	 * @throws LockDeclarationException when the declaration is invalid
	 */
	@Nullable LockDefinition find(Method method, Class<?> targetClass) {
		return this.cache.computeIfAbsent(new MethodClassKey(method, targetClass),
				(key) -> Optional.ofNullable(parse(method, targetClass)))
			.orElse(null);
	}

	/** Names a method in messages: {@code OrderService.pay(String, long)}. */
	static String describe(Method method, Class<?> targetClass) {
		return ClassUtils.getUserClass(targetClass).getSimpleName() + "." + method.getName() + "("
				+ parameterTypes(method) + ")";
	}

	/** The simple names of the parameter types of {@code method}, comma separated. */
	static String parameterTypes(Method method) {
		return Arrays.stream(method.getParameterTypes()).map(Class::getSimpleName).collect(Collectors.joining(", "));
	}

	private @Nullable LockDefinition parse(Method method, Class<?> targetClass) {
		Method specific = AopUtils.getMostSpecificMethod(method, targetClass);
		DistributedLock annotation = AnnotatedElementUtils.findMergedAnnotation(specific, DistributedLock.class);
		if (annotation == null) {
			return null;
		}
		String where = "@DistributedLock on " + describe(specific, targetClass);
		String name = annotation.name().isBlank()
				? ClassUtils.getUserClass(targetClass).getSimpleName() + "." + method.getName()
				: resolve(where, "name", annotation.name());
		if (name.contains(":")) {
			// The key is <name>:<value>: a ':' in the name would let name "a:b" with value "c" and name "a"
			// with value "b:c" share one lock.
			throw new LockDeclarationException(where, "name must not contain ':', was '" + name + "'", null);
		}
		Duration ttl = duration(where, "ttl", annotation.ttl(), this.defaultTtl);
		// A skipping method tries once unless it says otherwise: a global wait would let a skipped
		// scheduled run wait for the lock and then run after all.
		Supplier<Duration> defaultWaitTime = (annotation.onBusy() == OnBusy.SKIP) ? () -> Duration.ZERO
				: this.defaultWaitTime;
		Duration waitTime = duration(where, "waitTime", annotation.waitTime(), defaultWaitTime);
		Duration holdAtLeast = duration(where, "holdAtLeast", annotation.holdAtLeast(), () -> Duration.ZERO);
		LockOptions options;
		try {
			options = LockOptions.ofTtl(ttl)
				.withWaitTime(waitTime)
				.withRenew(annotation.renew())
				.withHoldAtLeast(holdAtLeast)
				.withName(name)
				.withMode(annotation.mode())
				.withPermits(annotation.permits());
		}
		catch (IllegalArgumentException ex) {
			String ttlSource = (annotation.ttl().isBlank() && ex.getMessage().contains("ttl"))
					? " (the ttl is locksmith.default-ttl)" : "";
			throw new LockDeclarationException(where, ex.getMessage() + ttlSource, ex);
		}
		if (annotation.onBusy() == OnBusy.SKIP && method.getReturnType().isPrimitive()
				&& method.getReturnType() != void.class) {
			throw new LockDeclarationException(where, "onBusy = SKIP cannot return a " + method.getReturnType()
					+ "; return a wrapper, an Optional or void", null);
		}
		Expression keyExpression = keyExpression(where, annotation.key(), specific);
		LockFallback fallback = FallbackMethods.find(where, annotation, specific, targetClass);
		return new LockDefinition(describe(specific, targetClass), keyExpression, annotation.key(), options,
				annotation.onBusy(), fallback, ReactiveResults.adapterFor(where, specific));
	}

	private @Nullable Expression keyExpression(String where, String source, Method method) {
		if (source.isBlank()) {
			return null;
		}
		Expression expression;
		try {
			expression = this.parser.parseExpression(source);
		}
		catch (ParseException ex) {
			throw new LockDeclarationException(where, "key expression '" + source + "' does not parse: "
					+ ex.getMessage(), ex);
		}
		this.keyVariables.check(where, source, expression, method);
		return expression;
	}

	private Duration duration(String where, String attribute, String text, Supplier<Duration> defaultValue) {
		if (text.isBlank()) {
			return defaultValue.get();
		}
		String resolved = resolve(where, attribute, text);
		try {
			return DurationFormatterUtils.detectAndParse(resolved.trim());
		}
		catch (RuntimeException ex) {
			String shown = resolved.equals(text) ? "'" + text + "'" : "'" + text + "' (= '" + resolved + "')";
			throw new LockDeclarationException(where, attribute + " " + shown
					+ " is not a duration; use 500ms, 30s, PT1M or a placeholder", ex);
		}
	}

	private String resolve(String where, String attribute, String text) {
		try {
			String resolved = this.placeholders.resolveStringValue(text);
			return (resolved != null) ? resolved : text;
		}
		catch (IllegalArgumentException ex) {
			throw new LockDeclarationException(where, attribute + " '" + text + "' cannot be resolved: "
					+ ex.getMessage(), ex);
		}
	}

}
