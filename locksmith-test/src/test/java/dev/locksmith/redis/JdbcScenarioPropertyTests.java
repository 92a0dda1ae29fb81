package dev.locksmith.redis;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.locksmith.jdbc.PostgresServerExtension;

/**
 * The generated scenarios of {@code QueueInterleavingPropertyTests} ({@link ScenarioTries}) on the PostgreSQL
 * store, each engine with a store and pool of its own on one database (see {@link JdbcScenarioStore}), with
 * the invariants of a store that tells whether a key is held but not by whom, as
 * {@link InMemoryScenarioPropertyTests} checks them. The same system properties size it.
 */
@Tag("slow")
class JdbcScenarioPropertyTests {

	static final int DEFAULT_TRIES = 6;

	static final int DEFAULT_BUDGET_SECONDS = 30;

	@RegisterExtension
	static final PostgresServerExtension postgres = PostgresServerExtension.withLockSchema();

	@Test
	void thePostgresStoreKeepsTheInvariantsAndBoundsItsCallsInGeneratedInterleavings() throws Exception {
		ScenarioTries.run(new JdbcScenarioStore(postgres), DEFAULT_TRIES, DEFAULT_BUDGET_SECONDS);
	}

	@Test
	void readersWritersAndPermitHoldersKeepTheInvariantsOnThePostgresStore() throws Exception {
		ScenarioTries.run(new JdbcScenarioStore(postgres), QueueScenario::generateModes, DEFAULT_TRIES,
				DEFAULT_BUDGET_SECONDS);
	}

}
