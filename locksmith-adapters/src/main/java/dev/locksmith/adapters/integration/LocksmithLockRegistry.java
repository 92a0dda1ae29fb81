package dev.locksmith.adapters.integration;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.integration.support.locks.RenewableLockRegistry;
import org.springframework.util.Assert;

import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockService;

/**
 * A Spring Integration {@link RenewableLockRegistry} on a Locksmith {@link LockService}: its locks are
 * {@link LocksmithDistributedLock}s, owned by the thread that takes them and reentrant, on the lease and
 * renewal of the options given.
 * <p>
 * The same key gives the same lock while any thread holds it. Locks nobody holds are forgotten, oldest
 * use first, once more than {@link #DEFAULT_CAPACITY} keys are cached. Locksmith renews the leases
 * itself when the options say so, so a renewal task scheduler is not needed and is ignored.
 *
 * @since 0.1.0
 */
public final class LocksmithLockRegistry implements RenewableLockRegistry<LocksmithDistributedLock> {

	/** How many keys the registry keeps a lock for, as Spring Integration's Redis registry does. */
	public static final int DEFAULT_CAPACITY = 100_000;

	private final LockService locks;

	private final LockOptions options;

	private final Map<String, LocksmithDistributedLock> byKey = new LinkedHashMap<>(16, 0.75f, true) {

		@Override
		protected boolean removeEldestEntry(Map.Entry<String, LocksmithDistributedLock> eldest) {
			return size() > DEFAULT_CAPACITY && !eldest.getValue().isHeldLocally();
		}

	};

	/** A registry of locks taken with the service's {@linkplain LockService#options() configured options}. */
	public LocksmithLockRegistry(LockService locks) {
		this(locks, locks.options());
	}

	/** A registry of locks taken with the lease and renewal of {@code options}. */
	public LocksmithLockRegistry(LockService locks, LockOptions options) {
		this.locks = locks;
		this.options = options;
	}

	/**
	 * The lock of {@code lockKey}.
	 * @param lockKey a {@link String}, the Locksmith lock key
	 */
	@Override
	public LocksmithDistributedLock obtain(Object lockKey) {
		Assert.isInstanceOf(String.class, lockKey, "A Locksmith lock key must be a String");
		String key = (String) lockKey;
		synchronized (this.byKey) {
			return this.byKey.computeIfAbsent(key, (k) -> new LocksmithDistributedLock(this.locks, k, this.options));
		}
	}

	/** Extends the lease of the lock of {@code lockKey}, held by this thread, by the registry's ttl. */
	@Override
	public void renewLock(Object lockKey) {
		renewLock(lockKey, this.options.ttl());
	}

	/**
	 * Extends the lease of the lock of {@code lockKey}, held by this thread, to {@code ttl} from now.
	 * @throws IllegalMonitorStateException when this thread does not hold the lock
	 * @throws IllegalStateException when the lease was lost
	 */
	@Override
	public void renewLock(Object lockKey, Duration ttl) {
		LocksmithDistributedLock lock = obtain(lockKey);
		if (!lock.extend(ttl)) {
			throw new IllegalStateException("The lock's lease was lost and cannot be renewed");
		}
	}

}
