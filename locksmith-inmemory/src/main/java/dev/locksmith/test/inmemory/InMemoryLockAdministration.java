package dev.locksmith.test.inmemory;

import java.util.List;

import dev.locksmith.core.LockAdministration;

/** {@link LockAdministration} of the in-memory store, which always answers. */
final class InMemoryLockAdministration implements LockAdministration {

	private final InMemoryLockStore store;

	InMemoryLockAdministration(InMemoryLockStore store) {
		this.store = store;
	}

	@Override
	public String storeDescription() {
		return "in-memory";
	}

	@Override
	public void ping() {
	}

	@Override
	public List<StoredLock> storedLocks(int limit) {
		return this.store.storedLocks(limit);
	}

	@Override
	public boolean forceRelease(String key) {
		return this.store.forceRelease(key);
	}

}
