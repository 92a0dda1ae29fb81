package dev.locksmith.test.inmemory;

import java.util.List;
import java.util.concurrent.CompletableFuture;

import dev.locksmith.core.LockAdministration.StoredLock;
import dev.locksmith.core.StoreAdministration;
import dev.locksmith.core.WaitQueue;

/** {@link StoreAdministration} of the in-memory store, which always answers at once. */
final class InMemoryLockAdministration implements StoreAdministration {

	private final InMemoryLockStore store;

	InMemoryLockAdministration(InMemoryLockStore store) {
		this.store = store;
	}

	@Override
	public String storeDescription() {
		return "in-memory";
	}

	@Override
	public CompletableFuture<Void> ping() {
		return CompletableFuture.completedFuture(null);
	}

	@Override
	public CompletableFuture<List<StoredLock>> storedLocks(int limit) {
		return CompletableFuture.completedFuture(this.store.storedLocks(limit));
	}

	@Override
	public CompletableFuture<List<WaitQueue>> waitQueues(int limit) {
		return CompletableFuture.completedFuture(this.store.waitQueues(limit));
	}

	@Override
	public CompletableFuture<Boolean> forceRelease(String key) {
		return CompletableFuture.completedFuture(this.store.forceRelease(key));
	}

}
