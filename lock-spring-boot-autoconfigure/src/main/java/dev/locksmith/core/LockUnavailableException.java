package dev.locksmith.core;

import org.jspecify.annotations.Nullable;

import dev.locksmith.core.internal.StoreFailures;

/**
 * The lock backend could not be reached in time, so no lock was granted (locking fails closed).
 *
 * @since 0.1.0
 */
public class LockUnavailableException extends DistributedLockException {

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
	 * @since 0.2.0
	 */
	public String getReason() {
		return (this.reason != null) ? this.reason : StoreFailures.reasonOfChain(this);
	}

}
