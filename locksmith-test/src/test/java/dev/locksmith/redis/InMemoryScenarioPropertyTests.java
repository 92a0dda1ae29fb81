package dev.locksmith.redis;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The generated scenarios of {@code QueueInterleavingPropertyTests} ({@link ScenarioTries}) on the in-memory
 * store, every engine sharing one {@code InMemoryLockBackend} as processes share one Redis (see
 * {@link InMemoryScenarioStore}).
 * It checks the invariants that apply to a store that tells whether a key is held but not by whom: no
 * two handles of one key held while the store holds it, fencing tokens strictly increasing per key, a
 * waiter whose keys are all free and wanted by no earlier such waiter granted within the bound (a held
 * key counting as free when no grant of it can still hold it: a claim handed to a waiter), store
 * calls (acquire, release, each lease extended) per lock operation and per second within the bounds
 * Redis's scripts have, and no waiter left queued once every client has finished. The lease-end and TTL
 * invariants, which need the holder's name or a stored expiry, are left to the Redis runs. The same
 * system properties size it; by default {@value #DEFAULT_TRIES} tries within
 * {@value #DEFAULT_BUDGET_SECONDS} s, for exclusive locks and again for readers, writers and permit holders
 * ({@link QueueScenario#generateModes}).
 */
@Tag("slow")
class InMemoryScenarioPropertyTests {

	static final int DEFAULT_TRIES = 8;

	static final int DEFAULT_BUDGET_SECONDS = 15;

	@Test
	void theInMemoryStoreKeepsTheInvariantsAndBoundsItsCallsInGeneratedInterleavings() throws Exception {
		ScenarioTries.run(new InMemoryScenarioStore(), DEFAULT_TRIES, DEFAULT_BUDGET_SECONDS);
	}

	@Test
	void readersWritersAndPermitHoldersKeepTheInvariantsOnTheInMemoryStore() throws Exception {
		ScenarioTries.run(new InMemoryScenarioStore(), QueueScenario::generateModes,
				DEFAULT_TRIES, DEFAULT_BUDGET_SECONDS);
	}

}
