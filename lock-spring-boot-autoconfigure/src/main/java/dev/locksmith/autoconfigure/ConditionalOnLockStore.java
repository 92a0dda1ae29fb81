package dev.locksmith.autoconfigure;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.context.annotation.Conditional;

/**
 * Matches when {@code locksmith.store} selects the given store, {@code redis} when it is not set: put
 * it on the configuration that provides a store's {@link dev.locksmith.core.LockBackend}.
 *
 * @since 0.1.0
 */
@Target({ ElementType.TYPE, ElementType.METHOD })
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Conditional(OnLockStoreCondition.class)
public @interface ConditionalOnLockStore {

	/** The store that the annotated configuration provides. */
	LocksmithProperties.Store value();

}
