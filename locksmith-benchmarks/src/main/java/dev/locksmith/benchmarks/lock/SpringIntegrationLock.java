package dev.locksmith.benchmarks.lock;

import java.time.Duration;
import java.util.concurrent.locks.Lock;

import com.zaxxer.hikari.HikariDataSource;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.integration.jdbc.lock.DefaultLockRepository;
import org.springframework.integration.jdbc.lock.JdbcLockRegistry;
import org.springframework.integration.redis.util.RedisLockRegistry;
import org.springframework.integration.redis.util.RedisLockRegistry.RedisLockType;
import org.springframework.integration.support.locks.LockRegistry;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;

import dev.locksmith.testing.RedisServer;

/** A Spring Integration lock registry with its default settings. */
final class SpringIntegrationLock implements HoldableLock {

	private final LockRegistry registry;

	private final Runnable shutdown;

	private SpringIntegrationLock(LockRegistry registry, Runnable shutdown) {
		this.registry = registry;
		this.shutdown = shutdown;
	}

	/** The {@link RedisLockRegistry} in one of its two modes, locks expiring after 30 s. */
	static SpringIntegrationLock onRedis(int port, RedisLockType type) {
		LettuceConnectionFactory connectionFactory = RedisServer.connectionFactory(port);
		RedisLockRegistry registry = new RedisLockRegistry(connectionFactory, "bench", Duration.ofSeconds(30));
		registry.setRedisLockType(type);
		return new SpringIntegrationLock(registry, () -> {
			registry.destroy();
			connectionFactory.destroy();
		});
	}

	/**
	 * The {@link JdbcLockRegistry} on a {@link DefaultLockRepository} of {@code dataSource}, in the table
	 * {@code INT_LOCK} of {@link BenchPostgres}, its transactions on a {@link DataSourceTransactionManager}
	 * as in an application; closes the pool with it.
	 */
	static SpringIntegrationLock onPostgres(HikariDataSource dataSource) {
		DefaultLockRepository repository = new DefaultLockRepository(dataSource);
		repository.setTransactionManager(new DataSourceTransactionManager(dataSource));
		repository.afterPropertiesSet();
		repository.afterSingletonsInstantiated();
		return new SpringIntegrationLock(new JdbcLockRegistry(repository), dataSource::close);
	}

	@Override
	public Release hold(String key) {
		Lock lock = this.registry.obtain(key);
		lock.lock();
		return lock::unlock;
	}

	@Override
	public void close() {
		this.shutdown.run();
	}

}
