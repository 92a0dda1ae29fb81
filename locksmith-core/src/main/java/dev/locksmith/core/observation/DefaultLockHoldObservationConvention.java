package dev.locksmith.core.observation;

/** Names a held time {@code locksmith.held} and tags it with the lock's name and the outcome. */
public class DefaultLockHoldObservationConvention extends LockObservationConventionSupport<LockHoldContext>
		implements LockHoldObservationConvention {

	public DefaultLockHoldObservationConvention() {
		super("locksmith.held", "hold lock");
	}

}
