package dev.locksmith.redis;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import dev.locksmith.core.LockBackend;
import dev.locksmith.core.ReleaseNotifications.Listener;

/** A backend that forwards every call to a Redis backend; tests override what they watch or delay. */
class ForwardingLockBackend implements LockBackend {

	private final RedisLockBackend delegate;

	ForwardingLockBackend(RedisLockBackend delegate) {
		this.delegate = delegate;
	}

	RedisLockBackend delegate() {
		return this.delegate;
	}

	@Override
	public CompletableFuture<AcquireResult> tryAcquire(List<String> keys, String ownerToken, Duration ttl,
			Duration queueFor) {
		return this.delegate.tryAcquire(keys, ownerToken, ttl, queueFor);
	}

	@Override
	public CompletableFuture<Integer> release(List<String> keys, String ownerToken) {
		return this.delegate.release(keys, ownerToken);
	}

	@Override
	public CompletableFuture<Integer> release(List<String> keys, String ownerToken, Listener handOvers) {
		return this.delegate.release(keys, ownerToken, handOvers);
	}

	@Override
	public List<CompletableFuture<Boolean>> extend(List<LeaseExtension> leases) {
		return this.delegate.extend(leases);
	}

	@Override
	public CompletableFuture<Boolean> isLocked(String key) {
		return this.delegate.isLocked(key);
	}

}
