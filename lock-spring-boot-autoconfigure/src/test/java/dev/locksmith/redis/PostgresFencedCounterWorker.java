package dev.locksmith.redis;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

import dev.locksmith.core.DefaultLockService;
import dev.locksmith.jdbc.JdbcLockStore;

/**
 * A worker JVM of the fault suite on PostgreSQL: the workload of {@link FencedCounterWorker}, its locks in the
 * PostgreSQL store on a pool of its own, every call bounded by the same timeout as on Redis. Arguments: the
 * lock database's JDBC URL, the checker Redis port.
 */
public final class PostgresFencedCounterWorker {

	private PostgresFencedCounterWorker() {
	}

	public static void main(String[] args) throws Exception {
		HikariConfig pool = new HikariConfig();
		pool.setJdbcUrl(args[0]);
		pool.setUsername("postgres");
		pool.setMaximumPoolSize(4);
		pool.setConnectionTimeout(250);
		try (HikariDataSource connections = new HikariDataSource(pool);
				JdbcLockStore store = JdbcLockStore.builder(connections)
					.statementTimeout(FencedCounterWorker.REDIS_TIMEOUT)
					.build();
				DefaultLockService locks = DefaultLockService.builder(store)
					.storeTimeout(FencedCounterWorker.REDIS_TIMEOUT)
					.build();
				Checker checker = new Checker(Integer.parseInt(args[1]))) {
			store.start();
			FencedCounterWorker.workOnTwoThreads(locks, checker);
		}
		System.exit(0);
	}

}
