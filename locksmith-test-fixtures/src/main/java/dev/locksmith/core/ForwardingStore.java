package dev.locksmith.core;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.jspecify.annotations.Nullable;

import dev.locksmith.core.ReleaseNotifications.Listener;

/** A store that forwards every call to another; tests override what they count, watch or add. */
public class ForwardingStore implements LockStore {

	private final LockStore store;

	public ForwardingStore(LockStore store) {
		this.store = store;
	}

	@Override
	public CompletableFuture<AcquireResult> tryAcquire(AcquireRequest request) {
		return this.store.tryAcquire(request);
	}

	@Override
	public CompletableFuture<Integer> release(List<String> keys, LockOwner owner, Listener handOvers) {
		return this.store.release(keys, owner, handOvers);
	}

	@Override
	public List<CompletableFuture<Boolean>> extend(List<LeaseExtension> leases) {
		return this.store.extend(leases);
	}

	@Override
	public CompletableFuture<Boolean> isLocked(String key) {
		return this.store.isLocked(key);
	}

	@Override
	public StoreAdministration administration() {
		return this.store.administration();
	}

	@Override
	public @Nullable ReleaseNotifications notifications() {
		return this.store.notifications();
	}

	@Override
	public boolean grantsShares() {
		return this.store.grantsShares();
	}

	@Override
	public Duration validity(Duration ttl) {
		return this.store.validity(ttl);
	}

	@Override
	public Duration claimLease() {
		return this.store.claimLease();
	}

}
