package dev.locksmith.adapters;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.locksmith.core.DefaultLockService;
import dev.locksmith.redis.RedisLockStore;
import dev.locksmith.testing.RedisServer;

/**
 * Lock services on one Redis, each with its own connections and release notifications as a process of
 * its own would have; closing this closes them all.
 */
public final class RedisLockServices implements AutoCloseable {

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
		RedisLockStore store = RedisLockStore.builder(connections).build();
		DefaultLockService service = DefaultLockService.builder(store).storeTimeout(Duration.ofSeconds(2)).build();
		store.start();
		this.resources.add(0, connections::destroy);
		this.resources.add(0, store);
		this.resources.add(0, service);
		return service;
	}

	/** The remaining lease of the lock of {@code key} in Redis, in milliseconds; negative when it is free. */
	public long leaseMillis(String key) {
		return Long.parseLong(this.redis.command("PTTL", "lock:{" + key + "}"));
	}

	@Override
	public void close() throws Exception {
		for (AutoCloseable resource : this.resources) {
			resource.close();
		}
		this.resources.clear();
	}

}
