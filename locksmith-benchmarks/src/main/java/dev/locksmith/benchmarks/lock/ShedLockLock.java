package dev.locksmith.benchmarks.lock;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.SimpleLock;
import net.javacrumbs.shedlock.provider.jdbctemplate.JdbcTemplateLockProvider;
import net.javacrumbs.shedlock.provider.redis.spring.RedisLockProvider;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.locksmith.testing.RedisServer;

/**
 * A ShedLock provider. ShedLock never waits for a busy lock, so this retries every millisecond, like the
 * textbook lock.
 */
final class ShedLockLock implements HoldableLock {

	private static final Duration LOCK_AT_MOST_FOR = Duration.ofSeconds(30);

	private final LockProvider provider;

	private final Runnable shutdown;

	private ShedLockLock(LockProvider provider, Runnable shutdown) {
		this.provider = provider;
		this.shutdown = shutdown;
	}

	/** ShedLock's Redis provider, on a connection factory of its own. */
	static ShedLockLock onRedis(int port) {
		LettuceConnectionFactory connectionFactory = RedisServer.connectionFactory(port);
		return new ShedLockLock(new RedisLockProvider(connectionFactory, "bench"), connectionFactory::destroy);
	}

	/**
	 * ShedLock's {@code JdbcTemplateLockProvider} on {@code dataSource}, on the database's time (as ShedLock
	 * advises), in the table {@code shedlock} of {@link BenchPostgres}; closes the pool with it.
	 */
	static ShedLockLock onPostgres(HikariDataSource dataSource) {
		return new ShedLockLock(new JdbcTemplateLockProvider(jdbcConfiguration(dataSource)), dataSource::close);
	}

	private static JdbcTemplateLockProvider.Configuration jdbcConfiguration(DataSource dataSource) {
		return JdbcTemplateLockProvider.Configuration.builder()
			.withJdbcTemplate(new JdbcTemplate(dataSource))
			.usingDbTime()
			.build();
	}

	@Override
	public Release hold(String key) throws InterruptedException {
		Optional<SimpleLock> lock = tryLock(key);
		while (lock.isEmpty()) {
			Thread.sleep(1);
			lock = tryLock(key);
		}
		return lock.get()::unlock;
	}

	private Optional<SimpleLock> tryLock(String key) {
		return this.provider.lock(new LockConfiguration(Instant.now(), key, LOCK_AT_MOST_FOR, Duration.ZERO));
	}

	@Override
	public void close() {
		this.shutdown.run();
	}

}
