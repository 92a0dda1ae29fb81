package dev.locksmith.core.internal;

import org.jspecify.annotations.Nullable;

import dev.locksmith.core.LockUnavailableException;

/**
 * The store refused a call for a passing reason, before changing anything, such as a cluster hash slot
 * that is migrating: the same call, sent again a little later, may succeed.
 */
public final class StoreBusyException extends LockUnavailableException {

	public StoreBusyException(String message, @Nullable Throwable cause) {
		super(message, cause);
	}

}
