package dev.locksmith.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.locksmith.core.DefaultLockService;
import dev.locksmith.core.LockStore;
import dev.locksmith.core.ReleaseNotifications;
import dev.locksmith.testing.RedisServer;

/**
 * Lock engines on real {@code redis-server}s, each as a separate process would run it: its own
 * connections, release notifications, backend and instance id ({@code p0}, {@code p1}, ...). Each is
 * connected, its scripts loaded and its subscriber connection opened before it is handed out, so that
 * no test measures, or interrupts, the first connection.
 */
final class LockEngines implements AutoCloseable {

	static final RedisLockKeys KEYS = new RedisLockKeys("lock:");

	private final List<DefaultLockService> engines = new ArrayList<>();

	private final List<AutoCloseable> resources = new ArrayList<>();

	/** Engines on one server. */
	LockEngines(RedisServer redis, int count, Duration recheckInterval) {
		this(count, recheckInterval, oneServer(redis));
	}

	/** Engines on the store each {@link Connected} that {@code connector} makes is connected to. */
	LockEngines(int count, Duration recheckInterval, Supplier<Connected> connector) {
		this(count, recheckInterval, Duration.ofSeconds(2), connector);
	}

	/** As {@link #LockEngines(int, Duration, Supplier)}, each engine waiting at most {@code storeTimeout} for a store call. */
	LockEngines(int count, Duration recheckInterval, Duration storeTimeout, Supplier<Connected> connector) {
		for (int i = 0; i < count; i++) {
			Connected store = connector.get();
			this.resources.add(0, store.close());
			DefaultLockService engine = DefaultLockService.builder(NotifyingStore.of(store.backend(), store.notifications()))
				.instanceId("p" + i)
				.recheckInterval(recheckInterval)
				.storeTimeout(storeTimeout)
				.build();
			store.notifications().watch("warm-up", Duration.ofSeconds(5));
			store.notifications().unwatch("warm-up");
			this.engines.add(engine);
			this.resources.add(0, engine);
		}
	}

	/** Connects an engine to one server. */
	static Supplier<Connected> oneServer(RedisServer redis) {
		return onConnections(redis::connectionFactory);
	}

	/** Connects an engine through a started factory that {@code connect} makes, to one Redis or a cluster. */
	static Supplier<Connected> onConnections(Supplier<LettuceConnectionFactory> connect) {
		return onConnections(connect, RedisLockBackend.DEFAULT_CLAIM_LEASE);
	}

	/** As {@link #onConnections(Supplier)}, with releases that give a waiter {@code claimLease} to take a lock. */
	static Supplier<Connected> onConnections(Supplier<LettuceConnectionFactory> connect, Duration claimLease) {
		return () -> {
			LettuceConnectionFactory connections = connect.get();
			RedisLockBackend backend = new RedisLockBackend(connections, KEYS, claimLease);
			backend.warmUp().join();
			RedisReleaseNotifications notifications = RedisReleaseNotifications.started(connections, KEYS);
			return new Connected(backend, notifications, () -> {
				notifications.destroy();
				backend.close();
				connections.destroy();
			});
		};
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

	/** One engine's connection to the store: its backend, warmed up, its notifications, and how to close both. */
	record Connected(LockStore backend, ReleaseNotifications notifications, AutoCloseable close) {
	}

}
