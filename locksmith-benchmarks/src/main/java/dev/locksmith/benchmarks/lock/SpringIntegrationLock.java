package dev.locksmith.benchmarks.lock;

import java.time.Duration;
import java.util.concurrent.locks.Lock;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.integration.redis.util.RedisLockRegistry;
import org.springframework.integration.redis.util.RedisLockRegistry.RedisLockType;

import dev.locksmith.testing.RedisServer;

/** Spring Integration's {@link RedisLockRegistry} in one of its two modes, with its default settings. */
final class SpringIntegrationLock implements HoldableLock {

	private final LettuceConnectionFactory connectionFactory;

	private final RedisLockRegistry registry;

	SpringIntegrationLock(int port, RedisLockType type) {
		this.connectionFactory = RedisServer.connectionFactory(port);
		this.registry = new RedisLockRegistry(this.connectionFactory, "bench", Duration.ofSeconds(30));
		this.registry.setRedisLockType(type);
	}

	@Override
	public Release hold(String key) {
		Lock lock = this.registry.obtain(key);
		lock.lock();
		return lock::unlock;
	}

	@Override
	public void close() {
		this.registry.destroy();
		this.connectionFactory.destroy();
	}

}
