package dev.locksmith.core.observation;

import org.jspecify.annotations.Nullable;

/** The context of a {@link LockObservationDocumentation#HELD locksmith.held} observation. */
public final class LockHoldContext extends LockObservationContext {

	public LockHoldContext(@Nullable String lockName) {
		super(lockName);
	}

}
