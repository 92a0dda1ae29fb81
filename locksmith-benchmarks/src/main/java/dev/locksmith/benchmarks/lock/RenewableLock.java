package dev.locksmith.benchmarks.lock;

import java.time.Duration;

/**
 * A lock library with a watchdog: the locks that {@link #hold} takes have a lease of
 * {@link #RENEWED_LEASE}, which the watchdog extends every third of it while they are held.
 */
public interface RenewableLock extends HoldableLock {

	/** The lease of held locks. */
	Duration RENEWED_LEASE = Duration.ofSeconds(3);

}
