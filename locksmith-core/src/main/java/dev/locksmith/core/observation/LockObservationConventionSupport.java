package dev.locksmith.core.observation;

import io.micrometer.common.KeyValues;
import io.micrometer.observation.ObservationConvention;

import dev.locksmith.annotation.LockMode;
import dev.locksmith.core.observation.LockObservationDocumentation.LowCardinalityKeys;

/** What the default conventions share: a fixed name, and the lock's name, its mode and the outcome as tags. */
abstract class LockObservationConventionSupport<C extends LockObservationContext> implements ObservationConvention<C> {

	private final String name;

	private final String contextualName;

	LockObservationConventionSupport(String name, String contextualName) {
		this.name = name;
		this.contextualName = contextualName;
	}

	@Override
	public String getName() {
		return this.name;
	}

	@Override
	public String getContextualName(C context) {
		return this.contextualName;
	}

	/** The lock's name, {@code unnamed} without one, its mode, and the outcome once there is one. */
	@Override
	public KeyValues getLowCardinalityKeyValues(C context) {
		KeyValues lock = KeyValues.of(LowCardinalityKeys.NAME.withValue(LockNameTags.of(context.getLockName())),
				LowCardinalityKeys.MODE.withValue(modeOf(context)));
		LockOutcome outcome = context.getOutcome();
		return (outcome != null) ? lock.and(LowCardinalityKeys.OUTCOME.withValue(outcome.tag())) : lock;
	}

	/** {@code permits} for a lock of several permits, else the mode in lower case: three values at most. */
	private static String modeOf(LockObservationContext context) {
		return (context.getPermits() > 1) ? "permits" : (context.getMode() == LockMode.READ) ? "read" : "write";
	}

}
