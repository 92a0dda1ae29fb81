package dev.locksmith.jedis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;

import dev.locksmith.core.DefaultLockService;
import dev.locksmith.redis.RedisLockStore;
import dev.locksmith.test.contract.LockStoreContractTests;
import dev.locksmith.testing.RedisServerExtension;

/**
 * The lock contract on one Redis through Jedis: every service has a connection factory and a store of
 * its own, with release notifications, as a separate process would.
 */
class JedisLockStoreContractTests extends LockStoreContractTests {

	@RegisterExtension
	static final RedisServerExtension redisServer = new RedisServerExtension();

	private final List<AutoCloseable> opened = new ArrayList<>();

	/** Runs after the contract's own clean-up, which closes the services on these stores. */
	@RegisterExtension
	final AfterEachCallback closeStores = (context) -> {
		for (AutoCloseable resource : this.opened) {
			resource.close();
		}
		this.opened.clear();
	};

	@Override
	protected DefaultLockService.Builder newServiceBuilder() {
		JedisConnectionFactory connections = JedisConnections.started(redisServer.server().port());
		RedisLockStore store = RedisLockStore.builder(connections).build();
		this.opened.add(0, connections::destroy);
		this.opened.add(0, store);
		DefaultLockService.Builder builder = DefaultLockService.builder(store)
			.storeTimeout(Duration.ofSeconds(2));
		store.start();
		return builder;
	}

}
