package dev.locksmith.core.internal;

import java.net.ConnectException;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeoutException;

import org.jspecify.annotations.Nullable;

import dev.locksmith.core.LockUnavailableException;

/**
 * Says why a lock store failed in words an operator can act on ({@code connection refused},
 * {@code connection lost}, {@code timed out after 2s}, {@code no quorum (1 of 3)}) instead of an
 * exception's class and message.
 * Not API: its wording may change.
 */
public final class StoreFailures {

	private StoreFailures() {
	}

	/** The reason of {@code failure}: its own for a {@link LockUnavailableException}, else {@link #reasonOfChain}. */
	public static String reason(Throwable failure) {
		return (failure instanceof LockUnavailableException unavailable) ? unavailable.getReason()
				: reasonOfChain(failure);
	}

	/** The first reason that the chain of causes of {@code failure} tells, else its innermost message. */
	public static String reasonOfChain(Throwable failure) {
		Throwable innermost = failure;
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause != failure && cause instanceof LockUnavailableException unavailable) {
				return unavailable.getReason();
			}
			if (cause instanceof ConnectException || mentions(cause, "connection refused")) {
				return "connection refused";
			}
			if (mentions(cause, "not connected")) {
				return "connection lost";
			}
			if (cause instanceof TimeoutException) {
				return (cause.getMessage() != null) ? cause.getMessage() : "timed out";
			}
			innermost = cause;
		}
		return (innermost.getMessage() != null) ? innermost.getMessage() : innermost.getClass().getSimpleName();
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

	private static boolean mentions(Throwable failure, String words) {
		@Nullable String message = failure.getMessage();
		return message != null && message.toLowerCase(Locale.ROOT).contains(words);
	}

}
