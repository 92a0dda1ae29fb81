package dev.locksmith.autoconfigure;

import org.springframework.boot.autoconfigure.condition.ConditionMessage;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.core.type.AnnotationMetadata;

import dev.locksmith.autoconfigure.LocksmithProperties.Store;

/**
 * Matches the store configuration that {@code locksmith.store} selects, {@code redis} when it is not set.
 * The property is bound as the properties class binds it, so every spelling it accepts
 * ({@code in-memory}, {@code IN_MEMORY}) selects the same store, and a value it rejects stops the
 * startup with the property's name and the valid values.
 */
class LockStoreCondition extends SpringBootCondition {

	static final String PROPERTY = "locksmith.store";

	@Override
	public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
		String configuration = ((AnnotationMetadata) metadata).getClassName();
		Store required = LockStoreConfigurations.storeOf(configuration);
		Store selected = Binder.get(context.getEnvironment()).bind(PROPERTY, Store.class).orElse(Store.REDIS);
		ConditionMessage message = ConditionMessage.forCondition("Lock store", required)
			.because(PROPERTY + " is " + selected);
		return (selected == required) ? ConditionOutcome.match(message) : ConditionOutcome.noMatch(message);
	}

}
