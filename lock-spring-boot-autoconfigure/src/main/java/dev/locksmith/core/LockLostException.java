package dev.locksmith.core;

/**
 * The lease ended, or another owner took the lock, while the protected work was still running.
 *
 * @since 0.1.0
 */
public class LockLostException extends DistributedLockException {

	private final String key;

	private final long fencingToken;

	public LockLostException(String key, long fencingToken) {
		super("Lock '" + key + "' (fencing token " + fencingToken + ") was lost while its work ran");
		this.key = key;
		this.fencingToken = fencingToken;
	}

	/** The key of the lost lock. */
	public String getKey() {
		return this.key;
	}

	/** The fencing token of the lost grant. */
	public long getFencingToken() {
		return this.fencingToken;
	}

}
