package dev.locksmith.aop;

import org.jspecify.annotations.Nullable;
import org.springframework.expression.Expression;

import dev.locksmith.annotation.OnBusy;
import dev.locksmith.core.LockOptions;

/**
 * A {@code @DistributedLock} declaration, parsed and validated once per method.
 *
 * @param method the annotated method as messages name it: {@code OrderService.pay(String, long)}
 * @param name the lock name
 * @param keyExpression the parsed key expression, or {@code null} to lock the method as a whole
 * @param keySource the key expression as written
 * @param options lease, wait and renewal
 * @param onBusy what to do when the lock stays busy
 */
record LockDefinition(String method, String name, @Nullable Expression keyExpression, String keySource,
		LockOptions options, OnBusy onBusy) {
}
