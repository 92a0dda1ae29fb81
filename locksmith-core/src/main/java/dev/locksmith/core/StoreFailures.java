package dev.locksmith.core;

import java.time.Duration;

/**
 * Says why a lock store failed in words an operator can act on ({@code connection refused},
 * {@code connection lost}, {@code timed out after 2s}, {@code no quorum (1 of 3)}) instead of an
 * exception's class and message: the reasons of {@link LockUnavailableException}, which a store of one's
 * own gives in the same words.
 *
 * @since 0.1.0
 */
public final class StoreFailures {

	private StoreFailures() {
	}

	/**
	 * The reason of {@code failure}: its own for a {@link LockUnavailableException}, else the one that a
	 * {@code LockUnavailableException} caused by it tells.
	 */
	public static String reason(Throwable failure) {
		LockUnavailableException unavailable = (failure instanceof LockUnavailableException own) ? own
				: new LockUnavailableException("", failure);
		return unavailable.getReason();
	}

	/** {@code timed out after 2s} or {@code timed out after 500ms}. */
	public static String timedOut(Duration timeout) {
		long millis = timeout.toMillis();
		return "timed out after " + ((millis % 1000 == 0) ? (millis / 1000) + "s" : millis + "ms");
	}

	/** {@code no quorum (1 of 3)}: how many of the servers answered. */
	public static String noQuorum(int answered, int servers) {
		return "no quorum (" + answered + " of " + servers + ")";
	}

}
