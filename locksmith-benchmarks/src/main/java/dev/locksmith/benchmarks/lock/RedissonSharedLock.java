package dev.locksmith.benchmarks.lock;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;

import org.redisson.Redisson;
import org.redisson.api.RPermitExpirableSemaphore;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * Redisson's {@code RReadWriteLock}, taken with {@code lock()} so that its watchdog renews it, and its
 * {@code RPermitExpirableSemaphore}, whose permits have a fixed lease of {@link SharedLock#LEASE}.
 */
final class RedissonSharedLock implements SharedLock {

	private final RedissonClient redisson;

	RedissonSharedLock(int port) {
		Config config = new Config();
		config.useSingleServer().setAddress("redis://127.0.0.1:" + port);
		this.redisson = Redisson.create(config);
	}

	@Override
	public long read(String key, Runnable section) {
		return run(this.redisson.getReadWriteLock(key).readLock(), section);
	}

	@Override
	public long write(String key, Runnable section) {
		return run(this.redisson.getReadWriteLock(key).writeLock(), section);
	}

	private static long run(Lock lock, Runnable section) {
		long start = System.nanoTime();
		lock.lock();
		try {
			long waited = System.nanoTime() - start;
			section.run();
			return waited;
		}
		finally {
			lock.unlock();
		}
	}

	@Override
	public long permit(String key, int permits, Runnable section) throws InterruptedException {
		RPermitExpirableSemaphore semaphore = this.redisson.getPermitExpirableSemaphore(key);
		semaphore.trySetPermits(permits);
		long start = System.nanoTime();
		String permit = semaphore.acquire(LEASE.toMillis(), TimeUnit.MILLISECONDS);
		try {
			long waited = System.nanoTime() - start;
			section.run();
			return waited;
		}
		finally {
			semaphore.release(permit);
		}
	}

	@Override
	public void close() {
		this.redisson.shutdown();
	}

}
