package dev.locksmith.redis;

import java.time.Duration;

/**
 * Redlock's validity arithmetic: a lease of {@code ttl} granted by a quorum may be counted on for
 * {@code ttl - elapsed - drift}, where elapsed runs on the local monotonic clock from the first request
 * and the drift (1% of the ttl plus 2ms) covers the servers' clocks running at other rates than ours.
 */
final class LeaseValidity {

	private static final Duration MIN_DRIFT = Duration.ofMillis(2);

	private LeaseValidity() {
	}

	/** How far the servers' clocks may drift from ours over a lease of {@code ttl}. */
	static Duration drift(Duration ttl) {
		return ttl.dividedBy(100).plus(MIN_DRIFT);
	}

	/** How long a lease of {@code ttl} is valid from its first request: {@code ttl - drift}. */
	static Duration fromRequest(Duration ttl) {
		return ttl.minus(drift(ttl));
	}

	/** What is left of a lease of {@code ttl} after {@code elapsedNanos}: {@code ttl - elapsed - drift}. */
	static Duration remaining(Duration ttl, long elapsedNanos) {
		return fromRequest(ttl).minusNanos(elapsedNanos);
	}

	/** Whether a lease of {@code ttl} is still valid {@code elapsedNanos} after its first request. */
	static boolean isValid(Duration ttl, long elapsedNanos) {
		Duration remaining = remaining(ttl, elapsedNanos);
		return !remaining.isNegative() && !remaining.isZero();
	}

}
