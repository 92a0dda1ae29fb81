package dev.locksmith.jdbc;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.locksmith.core.DefaultLockService;
import dev.locksmith.test.contract.LockStoreContractTests;

/**
 * The lock contract on one PostgreSQL server: every service has a store of its own, with its own executor
 * and listening connection, as a separate process would.
 */
class JdbcLockStoreContractTests extends LockStoreContractTests {

	@RegisterExtension
	static final PostgresServerExtension postgres = PostgresServerExtension.withLockSchema();

	private final List<JdbcLockStore> stores = new ArrayList<>();

	/** Runs after the contract's own clean-up, which closes the services on these stores. */
	@RegisterExtension
	final AfterEachCallback closeStores = (context) -> {
		this.stores.forEach(JdbcLockStore::close);
		this.stores.clear();
	};

	@Override
	protected DefaultLockService.Builder newServiceBuilder() {
		JdbcLockStore store = JdbcLockStore.builder(postgres.dataSource()).build();
		this.stores.add(store);
		store.start();
		return DefaultLockService.builder(store).storeTimeout(Duration.ofSeconds(2));
	}

	@Override
	protected boolean grantsShares() {
		return false;
	}

}
