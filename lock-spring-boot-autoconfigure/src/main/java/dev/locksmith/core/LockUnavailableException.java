package dev.locksmith.core;

import org.jspecify.annotations.Nullable;

/**
 * The lock backend could not be reached in time, so no lock was granted (locking fails closed).
 *
 * @since 0.1.0
 */
public class LockUnavailableException extends DistributedLockException {

	public LockUnavailableException(String message, @Nullable Throwable cause) {
		super(message, cause);
	}

}
