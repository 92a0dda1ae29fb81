package dev.locksmith.redis;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

import dev.locksmith.core.ForwardingStore;
import dev.locksmith.core.LockOwner;
import dev.locksmith.core.LockStore;
import dev.locksmith.core.ReleaseNotifications.Listener;

/** A store that counts each acquire, release and lease extension an engine asks of it, as a scenario's store calls. */
final class CountingStore extends ForwardingStore {

	private final AtomicLong calls;

	CountingStore(LockStore store, AtomicLong calls) {
		super(store);
		this.calls = calls;
	}

	@Override
	public CompletableFuture<AcquireResult> tryAcquire(AcquireRequest request) {
		this.calls.incrementAndGet();
		return super.tryAcquire(request);
	}

	@Override
	public CompletableFuture<Integer> release(List<String> keys, LockOwner owner, Listener handOvers) {
		this.calls.incrementAndGet();
		return super.release(keys, owner, handOvers);
	}

	@Override
	public List<CompletableFuture<Boolean>> extend(List<LeaseExtension> leases) {
		this.calls.addAndGet(leases.size());
		return super.extend(leases);
	}

}
