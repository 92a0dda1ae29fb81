package dev.locksmith.core.observation;

/** Names an acquisition {@code locksmith.acquire} and tags it with the lock's name and the outcome. */
public class DefaultLockAcquisitionObservationConvention extends LockObservationConventionSupport<LockAcquisitionContext>
		implements LockAcquisitionObservationConvention {

	public DefaultLockAcquisitionObservationConvention() {
		super("locksmith.acquire", "acquire lock");
	}

}
