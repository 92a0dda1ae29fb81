package dev.locksmith.jdbc;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.locksmith.core.DefaultLockService;
import dev.locksmith.test.contract.LockStoreContractTests;

/**
 * The lock contract on one PostgreSQL server: every service has a connection pool and a store of its own,
 * with its own executor and listening connection, as a separate process would.
 */
@Tag("slow")
class JdbcLockStoreContractTests extends LockStoreContractTests {

	@RegisterExtension
	static final PostgresServerExtension postgres = PostgresServerExtension.withLockSchema();

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
		HikariDataSource pool = postgres.pooledDataSource(8);
		JdbcLockStore store = JdbcLockStore.builder(pool).build();
		this.opened.add(0, pool);
		this.opened.add(0, store);
		store.start();
		return DefaultLockService.builder(store).storeTimeout(Duration.ofSeconds(2));
	}

	@Override
	protected boolean grantsShares() {
		return false;
	}

}
