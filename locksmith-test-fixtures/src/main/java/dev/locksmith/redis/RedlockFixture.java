package dev.locksmith.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

import dev.locksmith.core.DefaultLockService;
import dev.locksmith.testing.RedisServer;

/**
 * Builds Redlock backends and lock services on real servers, each with connections of its own as a
 * separate process would have, and closes everything it built.
 */
final class RedlockFixture implements AutoCloseable {

	static final RedisLockKeys KEYS = new RedisLockKeys("lock:");

	static final Duration STORE_TIMEOUT = Duration.ofSeconds(2);

	/**
	 * The node timeout of the lock services built here: a loaded test machine does not answer within the
	 * default, 5% of the ttl (50ms for the contract's 1s leases), and Redlock then rightly fails closed.
	 */
	static final Duration NODE_TIMEOUT = Duration.ofMillis(250);

	/** The Redis client's own command timeout on each server. */
	static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(1);

	private final List<AutoCloseable> resources = new ArrayList<>();

	/** New connections to {@code servers}. */
	RedlockServers connect(List<RedisServer> servers) {
		RedlockServers connections = RedlockServers.connect(RedisServers.urls(servers), "nodes", COMMAND_TIMEOUT);
		this.resources.add(0, connections);
		return connections;
	}

	/** A backend on {@code servers}, configured by {@code customizer}. */
	RedlockLockBackend backend(List<RedisServer> servers, UnaryOperator<RedlockLockBackend.Builder> customizer) {
		return backend(connect(servers), customizer);
	}

	/** A lock service builder on {@code servers}, with release notifications from each of them, and {@link #NODE_TIMEOUT}. */
	DefaultLockService.Builder serviceBuilder(List<RedisServer> servers) {
		RedlockServers connections = connect(servers);
		RedlockReleaseNotifications notifications = RedlockReleaseNotifications.started(
				connections.connectionFactories(), KEYS);
		this.resources.add(0, notifications::destroy);
		return DefaultLockService
			.builder(NotifyingStore.of(backend(connections, (builder) -> builder.nodeTimeout(NODE_TIMEOUT)),
					notifications))
			.storeTimeout(STORE_TIMEOUT);
	}

	/** A lock service on {@code servers}, closed with the fixture. */
	DefaultLockService service(List<RedisServer> servers) {
		DefaultLockService service = serviceBuilder(servers).build();
		this.resources.add(0, service);
		return service;
	}

	@Override
	public void close() throws Exception {
		for (AutoCloseable resource : this.resources) {
			resource.close();
		}
		this.resources.clear();
	}

	private RedlockLockBackend backend(RedlockServers connections, UnaryOperator<RedlockLockBackend.Builder> customizer) {
		RedlockLockBackend backend = customizer
			.apply(RedlockLockBackend.builder(connections.connectionFactories(), KEYS)
				.maxNodeTimeout(STORE_TIMEOUT.dividedBy(4)))
			.build();
		backend.warmUp().join();
		this.resources.add(0, backend);
		return backend;
	}

}
