package dev.locksmith.redis;

import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.jspecify.annotations.Nullable;

import dev.locksmith.core.LockOwner;
import dev.locksmith.core.LockStore;
import dev.locksmith.core.ReleaseNotifications;
import dev.locksmith.core.ReleaseNotifications.Listener;
import dev.locksmith.core.StoreAdministration;

/**
 * A store that forwards every lock call to a Redis backend, with the release notifications it is given;
 * tests override what they watch or delay.
 */
class ForwardingLockBackend implements LockStore {

	private final RedisLockBackend delegate;

	private final @Nullable ReleaseNotifications notifications;

	ForwardingLockBackend(RedisLockBackend delegate) {
		this(delegate, null);
	}

	ForwardingLockBackend(RedisLockBackend delegate, @Nullable ReleaseNotifications notifications) {
		this.delegate = delegate;
		this.notifications = notifications;
	}

	RedisLockBackend delegate() {
		return this.delegate;
	}

	@Override
	public CompletableFuture<AcquireResult> tryAcquire(AcquireRequest request) {
		return this.delegate.tryAcquire(request);
	}

	@Override
	public CompletableFuture<Integer> release(List<String> keys, LockOwner owner, Listener handOvers) {
		return this.delegate.release(keys, owner, handOvers);
	}

	@Override
	public List<CompletableFuture<Boolean>> extend(List<LeaseExtension> leases) {
		return this.delegate.extend(leases);
	}

	@Override
	public CompletableFuture<Boolean> isLocked(String key) {
		return this.delegate.isLocked(key);
	}

	@Override
	public StoreAdministration administration() {
		return this.delegate.administration();
	}

	@Override
	public @Nullable ReleaseNotifications notifications() {
		return this.notifications;
	}

}
