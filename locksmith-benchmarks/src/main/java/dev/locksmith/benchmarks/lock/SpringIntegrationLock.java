package dev.locksmith.benchmarks.lock;

import java.time.Duration;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.integration.redis.util.RedisLockRegistry;
import org.springframework.integration.redis.util.RedisLockRegistry.RedisLockType;

import dev.locksmith.testing.RedisServer;

/** Spring Integration's {@link RedisLockRegistry} in one of its two modes, with its default settings. */
final class SpringIntegrationLock implements BenchLock {

	private final LettuceConnectionFactory connectionFactory;

	private final RedisLockRegistry registry;

	SpringIntegrationLock(int port, RedisLockType type) {
		this.connectionFactory = RedisServer.connectionFactory(port);
		this.registry = new RedisLockRegistry(this.connectionFactory, "bench", Duration.ofSeconds(30));
		this.registry.setRedisLockType(type);
	}

	@Override
	public void runLocked(String key, Runnable section) {
		BenchLock.runHolding(this.registry.obtain(key), section);
	}

	@Override
	public void close() {
		this.registry.destroy();
		this.connectionFactory.destroy();
	}

}
