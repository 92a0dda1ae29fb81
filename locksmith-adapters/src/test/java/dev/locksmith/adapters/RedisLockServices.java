package dev.locksmith.adapters;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.locksmith.core.DefaultLockService;
import dev.locksmith.redis.RedisLockBackend;
import dev.locksmith.redis.RedisLockKeys;
import dev.locksmith.redis.RedisReleaseNotifications;
import dev.locksmith.testing.RedisServer;

/**
 * Lock services on one Redis, each with its own connections and release notifications as a process of
 * its own would have; closing this closes them all.
 */
public final class RedisLockServices implements AutoCloseable {

	private static final RedisLockKeys KEYS = new RedisLockKeys("lock:");

	private final RedisServer redis;

	private final List<AutoCloseable> resources = new ArrayList<>();

	public RedisLockServices(RedisServer redis) {
		this.redis = redis;
	}

	/** A new service, as another process would have. */
	public DefaultLockService newService() {
		return newService(this.redis.port());
	}

	/** A new service that reaches the Redis through {@code port}, such as a proxy's. */
	public DefaultLockService newService(int port) {
		LettuceConnectionFactory connections = RedisServer.connectionFactory(port);
		RedisReleaseNotifications notifications = new RedisReleaseNotifications(connections, KEYS);
		RedisLockBackend backend = new RedisLockBackend(connections, KEYS);
		DefaultLockService service = DefaultLockService.builder(backend)
			.storeTimeout(Duration.ofSeconds(2))
			.releaseNotifications(notifications)
			.build();
		this.resources.add(0, connections::destroy);
		this.resources.add(0, backend);
		this.resources.add(0, notifications::destroy);
		this.resources.add(0, service);
		return service;
	}

	/** The remaining lease of the lock of {@code key} in Redis, in milliseconds; negative when it is free. */
	public long leaseMillis(String key) {
		return Long.parseLong(this.redis.command("PTTL", KEYS.lockKey(key)));
	}

	@Override
	public void close() throws Exception {
		for (AutoCloseable resource : this.resources) {
			resource.close();
		}
		this.resources.clear();
	}

}
