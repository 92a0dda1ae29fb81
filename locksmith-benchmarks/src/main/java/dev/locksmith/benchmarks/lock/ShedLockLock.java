package dev.locksmith.benchmarks.lock;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;
import net.javacrumbs.shedlock.provider.redis.spring.RedisLockProvider;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.locksmith.testing.RedisServer;

/**
 * ShedLock's Redis provider. ShedLock never waits for a busy lock, so this retries every
 * millisecond, like the textbook lock.
 */
final class ShedLockLock implements HoldableLock {

	private static final Duration LOCK_AT_MOST_FOR = Duration.ofSeconds(30);

	private final LettuceConnectionFactory connectionFactory;

	private final RedisLockProvider provider;

	ShedLockLock(int port) {
		this.connectionFactory = RedisServer.connectionFactory(port);
		this.provider = new RedisLockProvider(this.connectionFactory, "bench");
	}

	@Override
	public Release hold(String key) throws InterruptedException {
		Optional<SimpleLock> lock = tryLock(key);
		while (lock.isEmpty()) {
			Thread.sleep(1);
			lock = tryLock(key);
		}
		return lock.get()::unlock;
	}

	private Optional<SimpleLock> tryLock(String key) {
		return this.provider.lock(new LockConfiguration(Instant.now(), key, LOCK_AT_MOST_FOR, Duration.ZERO));
	}

	@Override
	public void close() {
		this.connectionFactory.destroy();
	}

}
