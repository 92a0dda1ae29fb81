package dev.locksmith.aop;

import java.util.Collection;
import java.util.List;
import java.util.Optional;

import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockInfo;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockService;

/** A lock service that forwards every call to another; tests override the acquisition they observe. */
class ForwardingLockService implements LockService {

	private final LockService delegate;

	ForwardingLockService(LockService delegate) {
		this.delegate = delegate;
	}

	@Override
	public Optional<LockHandle> tryAcquire(String key, LockOptions options) throws InterruptedException {
		return tryAcquireAll(List.of(key), options);
	}

	@Override
	public Optional<LockHandle> tryAcquireAll(Collection<String> keys, LockOptions options)
			throws InterruptedException {
		return this.delegate.tryAcquireAll(keys, options);
	}

	@Override
	public boolean isLocked(String key) {
		return this.delegate.isLocked(key);
	}

	@Override
	public List<LockInfo> heldLocks() {
		return this.delegate.heldLocks();
	}

	@Override
	public LockOptions options() {
		return this.delegate.options();
	}

}
