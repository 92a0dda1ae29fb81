package dev.locksmith.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.locksmith.core.DefaultLockService;

/**
 * Builds lock services on a Redis deployment, each with its own connections, release notifications and
 * time-bounded backend as a separate process would have, and closes everything it built, the latest
 * first, after each test: register it as a {@code @RegisterExtension} field.
 */
final class RedisFixture implements AfterEachCallback {

	static final RedisLockKeys KEYS = new RedisLockKeys("lock:");

	static final Duration REDIS_TIMEOUT = Duration.ofMillis(500);

	private final Supplier<LettuceConnectionFactory> connections;

	private final List<AutoCloseable> resources = new ArrayList<>();

	private final boolean shardedPubSub;

	/** A fixture on the deployment that {@code connections} makes new, started connections to. */
	RedisFixture(Supplier<LettuceConnectionFactory> connections) {
		this(connections, false);
	}

	/** A fixture whose services ask for sharded pub/sub when {@code shardedPubSub}. */
	RedisFixture(Supplier<LettuceConnectionFactory> connections, boolean shardedPubSub) {
		this.connections = connections;
		this.shardedPubSub = shardedPubSub;
	}

	/** New, started connections, closed with the fixture. */
	LettuceConnectionFactory connect() {
		LettuceConnectionFactory connected = this.connections.get();
		closeWith(connected::destroy);
		return connected;
	}

	/** Closes {@code resource} with the fixture, before anything built earlier. */
	<T extends AutoCloseable> T closeWith(T resource) {
		this.resources.add(0, resource);
		return resource;
	}

	/** A builder with the default claim lease. */
	DefaultLockService.Builder serviceBuilder() {
		return serviceBuilder(RedisLockBackend.DEFAULT_CLAIM_LEASE);
	}

	/** A builder whose releases give the next waiter {@code claimLease} to take the lock. */
	DefaultLockService.Builder serviceBuilder(Duration claimLease) {
		return serviceBuilder(claimLease, RedisLockBackend.DEFAULT_COHORT_PASSES);
	}

	/**
	 * A builder whose releases give the next waiter {@code claimLease} to take the lock, and pass it up to
	 * {@code cohortPasses} times in a row to a waiter of the same engine ahead of another engine's.
	 */
	DefaultLockService.Builder serviceBuilder(Duration claimLease, int cohortPasses) {
		LettuceConnectionFactory connected = connect();
		RedisLockBackend backend = closeWith(
				new RedisLockBackend(connected, KEYS, claimLease, this.shardedPubSub, cohortPasses));
		RedisReleaseNotifications notifications = RedisReleaseNotifications.started(connected, KEYS,
				this.shardedPubSub);
		closeWith(notifications::destroy);
		return DefaultLockService.builder(NotifyingStore.of(backend, notifications)).storeTimeout(REDIS_TIMEOUT);
	}

	/** A service with the default claim lease, closed with the fixture. */
	DefaultLockService service() {
		return service(serviceBuilder());
	}

	/** A service built by {@code builder}, closed with the fixture. */
	DefaultLockService service(DefaultLockService.Builder builder) {
		return closeWith(builder.build());
	}

	@Override
	public void afterEach(ExtensionContext context) throws Exception {
		for (AutoCloseable resource : this.resources) {
			resource.close();
		}
		this.resources.clear();
	}

}
