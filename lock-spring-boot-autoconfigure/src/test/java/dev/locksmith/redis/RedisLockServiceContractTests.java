package dev.locksmith.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.locksmith.core.DefaultLockService;
import dev.locksmith.core.LockServiceContractTests;

/**
 * The lock contract on a Redis deployment: every service gets its own connections, release
 * notifications and time-bounded backend, as a separate process would.
 */
abstract class RedisLockServiceContractTests extends LockServiceContractTests {

	static final RedisLockKeys KEYS = new RedisLockKeys("lock:");

	static final Duration REDIS_TIMEOUT = Duration.ofMillis(500);

	protected final List<AutoCloseable> resources = new ArrayList<>();

	/** New, started connections to the deployment under test. */
	protected abstract LettuceConnectionFactory connect();

	/** New connections that are closed after the test. */
	protected final LettuceConnectionFactory connectForTest() {
		LettuceConnectionFactory connections = connect();
		this.resources.add(connections::destroy);
		return connections;
	}

	@Override
	protected DefaultLockService.Builder newServiceBuilder() {
		return newServiceBuilder(RedisLockBackend.DEFAULT_CLAIM_LEASE);
	}

	/** A builder whose releases give the next waiter {@code claimLease} to take the lock. */
	protected final DefaultLockService.Builder newServiceBuilder(Duration claimLease) {
		LettuceConnectionFactory connections = connectForTest();
		RedisReleaseNotifications notifications = RedisReleaseNotifications.started(connections, KEYS);
		RedisLockBackend backend = new RedisLockBackend(connections, KEYS, claimLease);
		this.resources.add(0, backend);
		this.resources.add(0, notifications::destroy);
		return DefaultLockService.builder(backend).storeTimeout(REDIS_TIMEOUT).releaseNotifications(notifications);
	}

	@AfterEach
	void closeConnections() throws Exception {
		for (AutoCloseable resource : this.resources) {
			resource.close();
		}
	}

}
