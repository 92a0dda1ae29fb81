package dev.locksmith.autoconfigure;

import java.time.Duration;

/**
 * The claim lease of a store whose releases hand locks to waiters: a waiter handed a lock whose notification
 * was lost (or that polls) learns of it only when it re-checks, so it gets two re-checks' time at least, and
 * its claim never lapses before it looks.
 */
final class ClaimLeases {

	private ClaimLeases() {
	}

	/** {@code locksmith.wait.claim-lease}, raised to two re-check intervals when shorter. */
	static Duration of(LocksmithProperties.Wait wait) {
		Duration twoRechecks = wait.getRecheckInterval().multipliedBy(2);
		return EngineProperty.apply("locksmith.wait.claim-lease", wait.getClaimLease(),
				() -> (wait.getClaimLease().compareTo(twoRechecks) < 0) ? twoRechecks : wait.getClaimLease());
	}

}
