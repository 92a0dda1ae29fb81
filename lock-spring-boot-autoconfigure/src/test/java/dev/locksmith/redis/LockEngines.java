package dev.locksmith.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.locksmith.core.DefaultLockService;
import dev.locksmith.testing.RedisServer;

/**
 * Lock engines on one real {@code redis-server}, each as a separate process would run it: its own
 * connections, release notifications, backend and instance id ({@code p0}, {@code p1}, ...). Each is
 * connected, its scripts loaded and its subscriber connection opened before it is handed out, so that
 * no test measures, or interrupts, the first connection.
 */
final class LockEngines implements AutoCloseable {

	static final RedisLockKeys KEYS = new RedisLockKeys("lock:");

	private final List<DefaultLockService> engines = new ArrayList<>();

	private final List<AutoCloseable> resources = new ArrayList<>();

	LockEngines(RedisServer redis, int count, Duration recheckInterval) {
		for (int i = 0; i < count; i++) {
			LettuceConnectionFactory connections = redis.connectionFactory();
			RedisReleaseNotifications notifications = new RedisReleaseNotifications(connections, KEYS);
			RedisLockBackend backend = new RedisLockBackend(connections, KEYS);
			DefaultLockService engine = DefaultLockService.builder(backend)
				.instanceId("p" + i)
				.recheckInterval(recheckInterval)
				.storeTimeout(Duration.ofSeconds(2))
				.releaseNotifications(notifications)
				.build();
			backend.warmUp().join();
			notifications.watch("warm-up", Duration.ofSeconds(5));
			notifications.unwatch("warm-up");
			this.engines.add(engine);
			this.resources.add(0, connections::destroy);
			this.resources.add(0, backend);
			this.resources.add(0, notifications::destroy);
			this.resources.add(0, engine);
		}
	}

	DefaultLockService engine(int index) {
		return this.engines.get(index);
	}

	@Override
	public void close() {
		for (AutoCloseable resource : this.resources) {
			try {
				resource.close();
			}
			catch (Exception ex) {
				// closing the rest matters more
			}
		}
	}

}
