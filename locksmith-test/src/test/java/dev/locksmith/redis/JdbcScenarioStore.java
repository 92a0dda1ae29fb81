package dev.locksmith.redis;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import com.zaxxer.hikari.HikariDataSource;

import dev.locksmith.core.LockAdministration.StoredLock;
import dev.locksmith.jdbc.JdbcLockStore;
import dev.locksmith.jdbc.PostgresServerExtension;

/**
 * A {@link ScenarioStore} on one PostgreSQL database: each engine has a pool and a {@link JdbcLockStore} of
 * its own, as the processes of a fleet would. Its calls are the engines' {@code tryAcquire}, {@code release}
 * and each lease of {@code extend} ({@link CountingStore}). Its state comes from the store's administration
 * and the live rows of its waiters table: it tells whether a key is held, not by whom
 * ({@link ScenarioStore.State#UNNAMED}), and every row it keeps has an end.
 */
final class JdbcScenarioStore extends CountedScenarioStore {

	/** Every key a generated scenario may lock. */
	private static final List<String> KEYS = IntStream.range(0, 4).mapToObj(QueueScenario::key).toList();

	private final PostgresServerExtension postgres;

	JdbcScenarioStore(PostgresServerExtension postgres) {
		this.postgres = postgres;
	}

	/**
	 * Engines that wait for a store call up to 10 s: a lock call on PostgreSQL is a transaction, which a
	 * loaded 2-core machine can keep past the 2 s the Redis scenarios allow (seen: an acquire at load ~20).
	 */
	@Override
	public LockEngines engines(int count, Duration recheckInterval) {
		return new LockEngines(count, recheckInterval, Duration.ofSeconds(10), () -> {
			HikariDataSource pool = this.postgres.pooledDataSource(4);
			JdbcLockStore store = JdbcLockStore.builder(pool).build();
			store.start();
			return new LockEngines.Connected(new CountingStore(store, this.calls), store.notifications(), () -> {
				store.close();
				pool.close();
			});
		});
	}

	/** Deletes every lock, share and waiter; the fences stay, as they do in production. */
	@Override
	public void flush() {
		update("TRUNCATE locksmith_locks, locksmith_shares, locksmith_waiters");
	}

	@Override
	public State state() {
		Map<String, StoredLock> stored = new LinkedHashMap<>();
		try (JdbcLockStore store = JdbcLockStore.builder(this.postgres.dataSource()).build()) {
			store.administration().storedLocks(Integer.MAX_VALUE).join().forEach((lock) -> stored.put(lock.key(), lock));
		}
		Map<String, Integer> queued = new LinkedHashMap<>();
		KEYS.forEach((key) -> queued.put(key, liveWaiters(key)));
		return new UnnamedHoldersState(TimeUnit.NANOSECONDS.toMillis(System.nanoTime()), stored, queued);
	}

	/** The waiters of {@code key} whose deadline has not passed on the database's clock. */
	private int liveWaiters(String key) {
		try (Connection connection = this.postgres.dataSource().getConnection();
				PreparedStatement count = connection.prepareStatement(
						"SELECT count(*) FROM locksmith_waiters WHERE lock_key = ? AND deadline > clock_timestamp()")) {
			count.setString(1, key);
			try (ResultSet answer = count.executeQuery()) {
				answer.next();
				return answer.getInt(1);
			}
		}
		catch (SQLException ex) {
			throw new IllegalStateException("Could not count the waiters of '" + key + "'", ex);
		}
	}

	private void update(String sql) {
		try (Connection connection = this.postgres.dataSource().getConnection();
				Statement statement = connection.createStatement()) {
			statement.execute(sql);
		}
		catch (SQLException ex) {
			throw new IllegalStateException("Could not run " + sql, ex);
		}
	}

}
