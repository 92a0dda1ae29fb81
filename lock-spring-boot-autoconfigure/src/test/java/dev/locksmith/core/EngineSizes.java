package dev.locksmith.core;

/**
 * What a lock engine keeps in memory, read through its package-private hooks for tests in other packages.
 *
 * @param registry handles in the registry of held locks, ended or not
 * @param renewals leases the renewal watchdog renews
 * @param waiters waiters and keys in the registry of waiting threads
 */
public record EngineSizes(int registry, int renewals, int waiters) {

	/** The sizes of {@code engine} now. */
	public static EngineSizes of(DefaultLockService engine) {
		return new EngineSizes(engine.leases().held().size(), (engine.leases().renewal() instanceof LeaseRenewer renewer) ? renewer.size() : 0,
				engine.acquisitions().waitRegistrySize());
	}

	/** The sizes of several engines, added up. */
	public EngineSizes plus(EngineSizes other) {
		return new EngineSizes(this.registry + other.registry, this.renewals + other.renewals,
				this.waiters + other.waiters);
	}

}
