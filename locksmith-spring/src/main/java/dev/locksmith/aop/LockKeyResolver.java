package dev.locksmith.aop;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.jspecify.annotations.Nullable;
import org.springframework.context.expression.MethodBasedEvaluationContext;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.expression.BeanResolver;
import org.springframework.expression.EvaluationException;
import org.springframework.expression.Expression;
import org.springframework.util.ObjectUtils;
import org.springframework.util.ReflectionUtils;

/**
 * Turns a lock definition and a call's arguments into lock keys {@code <name>:<value>}: evaluates
 * the key expression with Spring's method-based evaluation context (arguments by name, as
 * {@code #p0}/{@code #a0}, beans as {@code @name}); a collection or array gives one key per element,
 * and an {@code Optional} the key of its content.
 * A value must have a value-based {@code toString()}: one with Object's identity hash would make every
 * instance a lock of its own, so it is refused.
 */
final class LockKeyResolver {

	private final ParameterNameDiscoverer parameterNames = new DefaultParameterNameDiscoverer();

	private final @Nullable BeanResolver beans;

	LockKeyResolver(@Nullable BeanResolver beans) {
		this.beans = beans;
	}

	/**
	 * The keys to lock for this call.
	 * @throws IllegalArgumentException when the expression fails or yields null, blank or no value
	 */
	List<String> resolve(LockDefinition definition, Method method, @Nullable Object[] arguments,
			@Nullable Object target) {
		Expression expression = definition.keyExpression();
		if (expression == null) {
			return List.of(definition.name());
		}
		List<String> keys = new ArrayList<>();
		for (Object value : values(definition, evaluate(definition, expression, method, arguments, target))) {
			if (value == null || value.toString().isBlank()) {
				throw invalidKey(definition, "gave a " + ((value == null) ? "null" : "blank") + " key");
			}
			if (hasIdentityToString(value)) {
				throw invalidKey(definition, "gave a " + value.getClass().getName()
						+ ", whose toString() is Object's identity hash: each instance would be a lock of its own;"
						+ " lock on a value such as its id");
			}
			keys.add(definition.name() + ":" + value);
		}
		if (keys.isEmpty()) {
			throw invalidKey(definition, "gave no key (an empty collection or array)");
		}
		return keys;
	}

	private @Nullable Object evaluate(LockDefinition definition, Expression expression, Method method,
			@Nullable Object[] arguments, @Nullable Object target) {
		MethodBasedEvaluationContext context = new MethodBasedEvaluationContext(target, method, arguments,
				this.parameterNames);
		if (this.beans != null) {
			context.setBeanResolver(this.beans);
		}
		try {
			return expression.getValue(context);
		}
		catch (EvaluationException ex) {
			throw new IllegalArgumentException("@DistributedLock on " + definition.method() + ": key expression '"
					+ definition.keySource() + "' failed: " + ex.getMessage(), ex);
		}
	}

	/**
	 * The values to lock: an {@code Optional}'s content, a flat collection's or array's elements, or the
	 * value itself. A map, or a container inside a collection, has no one obvious key, so it is refused.
	 */
	private static Collection<?> values(LockDefinition definition, @Nullable Object result) {
		Object value = (result instanceof Optional<?> optional) ? optional.orElse(null) : result;
		if (value instanceof Map<?, ?>) {
			throw invalidKey(definition, "gave a Map; lock on its keys (.keySet()) or its values (.values())");
		}
		if (value instanceof Optional<?>) {
			throw invalidKey(definition, "gave an Optional inside an Optional; lock on its content");
		}
		if (!isContainer(value)) {
			return Collections.singletonList(value);
		}
		Collection<?> elements = (value instanceof Collection<?> collection) ? collection
				: Arrays.asList(ObjectUtils.toObjectArray(value));
		for (Object element : elements) {
			if (isContainer(element)) {
				throw invalidKey(definition, "gave a " + element.getClass().getSimpleName()
						+ " inside a collection; lock on a flat collection of values");
			}
		}
		return elements;
	}

	private static boolean isContainer(@Nullable Object value) {
		return value instanceof Collection<?> || value instanceof Map<?, ?> || value instanceof Optional<?>
				|| (value != null && value.getClass().isArray());
	}

	private static boolean hasIdentityToString(Object value) {
		Method toString = ReflectionUtils.findMethod(value.getClass(), "toString");
		return toString == null || toString.getDeclaringClass() == Object.class;
	}

	private static IllegalArgumentException invalidKey(LockDefinition definition, String problem) {
		return new IllegalArgumentException("@DistributedLock on " + definition.method() + ": key expression '"
				+ definition.keySource() + "' " + problem + "; the method was not run");
	}

}
