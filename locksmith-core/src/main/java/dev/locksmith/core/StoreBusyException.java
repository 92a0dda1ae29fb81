package dev.locksmith.core;

import org.jspecify.annotations.Nullable;

/**
 * The store refused a call for a passing reason, before changing anything, such as a cluster hash slot
 * that is migrating: the same call, sent again a little later, may succeed. A {@link LockStore} fails a
 * call with it to have the engine send the call again, within the store timeout.
 *
 * @since 0.1.0
 */
public final class StoreBusyException extends LockUnavailableException {

	public StoreBusyException(String message, @Nullable Throwable cause) {
		super(message, cause);
	}

}
