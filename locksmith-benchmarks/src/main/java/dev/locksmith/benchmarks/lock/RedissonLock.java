package dev.locksmith.benchmarks.lock;

import org.redisson.Redisson;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * Redisson's {@code RLock}, taken with {@code lock()} so that its watchdog renews the lease; the
 * watchdog timeout, which is that lease, is {@link RenewableLock#RENEWED_LEASE}.
 */
final class RedissonLock implements RenewableLock {

	private final RedissonClient redisson;

	RedissonLock(int port) {
		Config config = new Config();
		config.useSingleServer().setAddress("redis://127.0.0.1:" + port);
		config.setLockWatchdogTimeout(RENEWED_LEASE.toMillis());
		this.redisson = Redisson.create(config);
	}

	@Override
	public Release hold(String key) {
		RLock lock = this.redisson.getLock(key);
		lock.lock();
		return lock::unlock;
	}

	@Override
	public void close() {
		this.redisson.shutdown();
	}

}
