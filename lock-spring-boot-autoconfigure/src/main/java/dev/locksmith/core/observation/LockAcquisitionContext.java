package dev.locksmith.core.observation;

import org.jspecify.annotations.Nullable;

/** The context of a {@link LockObservationDocumentation#ACQUIRE locksmith.acquire} observation. */
public final class LockAcquisitionContext extends LockObservationContext {

	public LockAcquisitionContext(@Nullable String lockName) {
		super(lockName);
	}

}
