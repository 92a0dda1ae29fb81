package dev.locksmith.redis;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.locksmith.testing.RedisServerExtension;

/**
 * The generated scenarios of {@link QueueInterleavingPropertyTests} with read locks and permits: each
 * try generates readers, writers and permit holders on two overlapping keys ({@link
 * QueueScenario#generateModes}), with releases, extensions, abandoned waiters and leases left to
 * expire, on a real {@code redis-server}. After every grant and release and every 25 ms,
 * {@link QueueScenarioRun} checks that no writer holds a key with anyone else, that no more than n
 * hold n permits, that the first waiter of a queue is granted within a bound once the owners it found
 * there leave (readers never starve a queued writer), that fencing tokens increase per key, that every
 * Locksmith key has a TTL, that the queues empty out, and that the scripts per operation stay bounded;
 * a failure is shrunk and printed with its seed. The same system properties size it; by default
 * {@value #DEFAULT_TRIES} tries within {@value #DEFAULT_BUDGET_SECONDS} s.
 */
@Tag("slow")
class ModesScenarioPropertyTests {

	static final int DEFAULT_TRIES = 6;

	static final int DEFAULT_BUDGET_SECONDS = 15;

	@RegisterExtension
	static final RedisServerExtension redisServer = new RedisServerExtension();

	@Test
	void readersWritersAndPermitHoldersKeepTheInvariantsInGeneratedInterleavings() throws Exception {
		ScenarioTries.run(ScenarioStore.oneServer(redisServer.server()),
				QueueScenario::generateModes, DEFAULT_TRIES, DEFAULT_BUDGET_SECONDS);
	}

}
