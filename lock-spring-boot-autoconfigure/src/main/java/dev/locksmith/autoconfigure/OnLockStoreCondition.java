package dev.locksmith.autoconfigure;

import org.springframework.boot.autoconfigure.condition.ConditionMessage;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;

import dev.locksmith.autoconfigure.LocksmithProperties.Store;

/**
 * Binds {@code locksmith.store} as the properties do, so that every spelling they accept
 * ({@code in-memory}, {@code IN_MEMORY}) selects the same store, and a value they reject stops the
 * startup with the property's name and the valid values.
 */
class OnLockStoreCondition extends SpringBootCondition {

	static final String PROPERTY = "locksmith.store";

	@Override
	public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
		Store required = metadata.getAnnotations().get(ConditionalOnLockStore.class).getEnum("value", Store.class);
		Store selected = selectedStore(context.getEnvironment());
		ConditionMessage.Builder message = ConditionMessage.forCondition(ConditionalOnLockStore.class, required);
		return (selected == required) ? ConditionOutcome.match(message.because(PROPERTY + " is " + selected))
				: ConditionOutcome.noMatch(message.because(PROPERTY + " is " + selected));
	}

	static Store selectedStore(Environment environment) {
		return Binder.get(environment).bind(PROPERTY, Store.class).orElse(Store.REDIS);
	}

}
