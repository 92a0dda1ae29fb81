package dev.locksmith.core;

import org.jspecify.annotations.Nullable;

/**
 * Root of the exceptions Locksmith throws.
 *
 * @since 0.1.0
 */
public class DistributedLockException extends RuntimeException {

	public DistributedLockException(String message) {
		super(message);
	}

	public DistributedLockException(String message, @Nullable Throwable cause) {
		super(message, cause);
	}

}
