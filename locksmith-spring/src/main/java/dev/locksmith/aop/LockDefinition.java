package dev.locksmith.aop;

import java.util.Objects;

import org.jspecify.annotations.Nullable;
import org.springframework.core.ReactiveAdapter;
import org.springframework.expression.Expression;

import dev.locksmith.annotation.OnBusy;
import dev.locksmith.core.LockOptions;

/**
 * A {@code @DistributedLock} declaration, parsed and validated once per method.
 *
 * @param method the annotated method as messages name it: {@code OrderService.pay(String, long)}
 * @param keyExpression the parsed key expression, or {@code null} to lock the method as a whole
 * @param keySource the key expression as written
 * @param options lease, wait, renewal and the lock's name
 * @param onBusy what to do when the lock stays busy
 * @param fallback the method to call instead when the lock stays busy, or {@code null} to throw
 * @param reactiveAdapter the adapter of a reactive result, locked for its subscription, or {@code null}
 */
record LockDefinition(String method, @Nullable Expression keyExpression, String keySource, LockOptions options,
		OnBusy onBusy, @Nullable LockFallback fallback, @Nullable ReactiveAdapter reactiveAdapter) {

	/** The lock's name: every annotated lock has one. */
	String name() {
		return Objects.requireNonNull(this.options.name());
	}

}
