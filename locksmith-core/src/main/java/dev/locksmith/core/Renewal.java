package dev.locksmith.core;

/**
 * How the leases of held locks are kept: renewed by the {@link LeaseRenewer} watchdog, or left to run
 * out ({@link NoRenewal}). An engine chooses once, at construction, and each lock by its options.
 */
interface Renewal extends AutoCloseable {

	/** Takes a lock just granted under its full lease. */
	void register(DefaultLockHandle handle);

	/**
	 * Takes a lock that a release handed over under a short claim lease, and sees its full lease set,
	 * counted from {@code toldAtNanos}, when this process learnt of the hand-over. The extension runs in
	 * the background, so it may land after the claim lapsed: the waiter takes a handed lock only with
	 * enough of its claim left for the extension (else it asks the store for its full lease first), and
	 * an extension refused all the same, the claim having lapsed, is a lost lease, reported as any other,
	 * whether or not another owner took the lock meanwhile.
	 */
	void claimHanded(DefaultLockHandle handle, long toldAtNanos);

	/** The lease of {@code handle} was extended on request, so it falls due at another time. */
	void rescheduled(DefaultLockHandle handle);

	/** Lets go of a lock that was released or lost. */
	void unregister(DefaultLockHandle handle);

	/** Stops renewing; locks still held expire after their lease. */
	@Override
	void close();

}
