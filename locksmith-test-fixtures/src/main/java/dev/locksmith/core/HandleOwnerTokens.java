package dev.locksmith.core;

/**
 * Test access to the owner a {@link DefaultLockHandle} asked the store as, so that tests on a real
 * store can tell whose token a lock key names.
 */
public final class HandleOwnerTokens {

	private HandleOwnerTokens() {
	}

	/** The owner of {@code handle}, a handle of a {@link DefaultLockService}. */
	public static LockOwner owner(LockHandle handle) {
		return ((DefaultLockHandle) handle).owner();
	}

}
