package dev.locksmith.redis;

import java.time.Duration;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.locksmith.core.DefaultLockService;
import dev.locksmith.testing.RedisServer;

/** The lock engine of a worker JVM, wired by hand as the auto-configuration would wire it. */
final class WorkerLocks implements AutoCloseable {

	final LettuceConnectionFactory connections;

	final DefaultLockService locks;

	private final RedisReleaseNotifications notifications;

	private final RedisLockBackend backend;

	WorkerLocks(int port, Duration redisTimeout) {
		RedisLockKeys keys = new RedisLockKeys("lock:");
		this.connections = RedisServer.connectionFactory(port);
		this.notifications = RedisReleaseNotifications.started(this.connections, keys);
		this.backend = new RedisLockBackend(this.connections, keys);
		this.locks = DefaultLockService.builder(NotifyingStore.of(this.backend, this.notifications))
			.storeTimeout(redisTimeout)
			.build();
	}

	@Override
	public void close() throws Exception {
		this.locks.close();
		this.backend.close();
		this.notifications.destroy();
		this.connections.destroy();
	}

}
