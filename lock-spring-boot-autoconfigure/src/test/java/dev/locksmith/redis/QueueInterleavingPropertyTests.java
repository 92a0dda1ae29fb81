package dev.locksmith.redis;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.locksmith.testing.RedisServerExtension;

/**
 * Generated interleavings of the wait queue on a real {@code redis-server}: each try generates a
 * {@link QueueScenario} from a seed (clients on two engines, single and overlapping multi-key sets,
 * random lease, wait and minimum hold, releases, extensions, abandoned waiters and expiring leases),
 * runs it with {@link QueueScenarioRun}, which checks the invariants after every grant and release and
 * every 25 ms, and on a failure minimises the scenario and reports it with its seed
 * ({@link ScenarioTries}, whose system properties size it). By default {@value #DEFAULT_TRIES} tries within
 * {@value #DEFAULT_BUDGET_SECONDS} s (the budget applies only to the default, so that {@code ./mvnw verify}
 * stays within a minute on a busy machine: about 17 tries on 2 cores; a run of 500 tries takes about
 * 20 minutes).
 */
@Tag("slow")
class QueueInterleavingPropertyTests {

	static final int DEFAULT_TRIES = 20;

	static final int DEFAULT_BUDGET_SECONDS = 40;

	@RegisterExtension
	static final RedisServerExtension redisServer = new RedisServerExtension();

	@Test
	void theWaitQueueKeepsItsInvariantsInGeneratedInterleavings() throws Exception {
		ScenarioTries.run(ScenarioStore.oneServer(redisServer.server()), DEFAULT_TRIES, DEFAULT_BUDGET_SECONDS);
	}

}
