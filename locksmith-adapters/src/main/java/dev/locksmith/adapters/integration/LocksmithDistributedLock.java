package dev.locksmith.adapters.integration;

import org.springframework.integration.support.locks.DistributedLock;

import dev.locksmith.adapters.lock.LocksmithLock;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockService;

/**
 * The lock that {@link LocksmithLockRegistry} hands out: a {@link LocksmithLock}, whose lease may be
 * chosen per acquisition as Spring Integration's {@link DistributedLock} allows.
 *
 * @since 0.1.0
 */
public final class LocksmithDistributedLock extends LocksmithLock implements DistributedLock {

	LocksmithDistributedLock(LockService locks, String key, LockOptions options) {
		super(locks, key, options);
	}

}
