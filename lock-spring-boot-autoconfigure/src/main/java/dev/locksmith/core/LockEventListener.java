package dev.locksmith.core;

/**
 * Hears what the lock engine does in the background: renewals and lost leases.
 *
 * @since 0.1.0
 */
public interface LockEventListener {

	/** A lock was found lost before its release. */
	default void leaseLost(LockLostEvent event) {
	}

	/** The watchdog extended {@code count} leases. */
	default void leasesRenewed(int count) {
	}

}
