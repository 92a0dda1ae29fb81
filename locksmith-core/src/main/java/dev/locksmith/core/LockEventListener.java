package dev.locksmith.core;

/**
 * Hears what the lock engine does in the background: renewals and lost leases. Events arrive one at a
 * time on the engine's {@code locksmith-events} thread, never on the renewal thread, so a slow listener
 * delays only later events. Renewal counts waiting for delivery are added up; a lost-lease event that
 * finds 1,000 events waiting is dropped with a WARNING (the engine has logged the loss already).
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
