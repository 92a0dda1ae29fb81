package dev.locksmith.jdbc;

import java.time.Duration;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.locksmith.core.DefaultLockService;
import dev.locksmith.test.contract.LockStoreContractTests;

/**
 * The lock contract on one PostgreSQL server, read/write locks and permits included: every service has a
 * connection pool and a store of its own, with its own executor and listening connection, as a separate
 * process would.
 */
@Tag("slow")
class JdbcLockStoreContractTests extends LockStoreContractTests {

	@RegisterExtension
	static final PostgresServerExtension postgres = PostgresServerExtension.withLockSchema();

	/** Closes the stores after the contract's own clean-up, which closes the services on them. */
	@RegisterExtension
	final JdbcStores stores = new JdbcStores(postgres);

	@Override
	protected DefaultLockService.Builder newServiceBuilder() {
		return DefaultLockService.builder(this.stores.store(this.stores.pool(8))).storeTimeout(Duration.ofSeconds(2));
	}

}
