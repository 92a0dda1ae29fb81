package dev.locksmith.core;

/**
 * Test access to the owner token a {@link DefaultLockHandle} is stored under, so that tests on a real
 * store can tell whose token a lock key names.
 */
public final class HandleOwnerTokens {

	private HandleOwnerTokens() {
	}

	/** The owner token of {@code handle}, a handle of a {@link DefaultLockService}. */
	public static String ownerToken(LockHandle handle) {
		return ((DefaultLockHandle) handle).ownerToken();
	}

}
