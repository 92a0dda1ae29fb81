package dev.locksmith.core;

import java.net.ConnectException;
import java.util.Locale;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * The lock backend could not be reached in time, so no lock was granted (locking fails closed).
 *
 * @since 0.1.0
 */
public class LockUnavailableException extends DistributedLockException {

	/** A Redis client's own command timeout, as Lettuce words it: {@code Command timed out after 1 second(s)}. */
	private static final Pattern CLIENT_TIMEOUT = Pattern.compile("timed out after (\\d+) (second|millisecond)\\(s\\)");

	private final @Nullable String reason;

	public LockUnavailableException(String message, @Nullable Throwable cause) {
		this(message, cause, null);
	}

	/** A failure whose {@code reason} is known, such as {@code timed out after 2s}. */
	public LockUnavailableException(String message, @Nullable Throwable cause, @Nullable String reason) {
		super(message, cause);
		this.reason = reason;
	}

	/**
	 * Why the store is unavailable, in words an operator can act on: {@code connection refused},
	 * {@code timed out after 2s}, {@code no quorum (1 of 3)}, or else the message of the innermost cause.
	 * @since 0.1.0
	 */
	public String getReason() {
		return (this.reason != null) ? this.reason : reasonOfChain(this);
	}

	/** The first reason that the chain of causes of {@code failure} tells, else its innermost message. */
	private static String reasonOfChain(Throwable failure) {
		Throwable innermost = failure;
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause != failure && cause instanceof LockUnavailableException unavailable) {
				return unavailable.getReason();
			}
			if (cause instanceof ConnectException || mentions(cause, "connection refused")) {
				return "connection refused";
			}
			if (mentions(cause, "not connected") || mentions(cause, "disconnected") || mentions(cause, "connection closed")) {
				return "connection lost";
			}
			if (cause instanceof TimeoutException) {
				return (cause.getMessage() != null) ? cause.getMessage() : "timed out";
			}
			Matcher clientTimeout = CLIENT_TIMEOUT.matcher(String.valueOf(cause.getMessage()));
			if (clientTimeout.find()) {
				return "timed out after " + clientTimeout.group(1) + (clientTimeout.group(2).equals("second") ? "s" : "ms");
			}
			innermost = cause;
		}
		return (innermost.getMessage() != null) ? innermost.getMessage() : innermost.getClass().getSimpleName();
	}

	private static boolean mentions(Throwable failure, String words) {
		@Nullable String message = failure.getMessage();
		return message != null && message.toLowerCase(Locale.ROOT).contains(words);
	}

}
