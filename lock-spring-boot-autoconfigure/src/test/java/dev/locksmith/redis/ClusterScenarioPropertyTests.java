package dev.locksmith.redis;

import java.util.List;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import dev.locksmith.testing.RedisCluster;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The generated scenarios of {@link QueueInterleavingPropertyTests} on a real three-master Redis Cluster:
 * the same invariants, with each key's holder and queue read from the master that serves its slot, and
 * the scripts counted on every master (the sum of their {@code INFO commandstats}) against the bounds of
 * one Redis. The scenario keys {@code a} to {@code d} lie in slots of all three masters, so a multi-key
 * waiter is granted slot by slot and waits in the queues of several masters. The same system properties
 * size it; by default {@value #DEFAULT_TRIES} tries within {@value #DEFAULT_BUDGET_SECONDS} s. The scenarios of
 * readers, writers and permit holders ({@link ModesScenarioPropertyTests}) run here too, their two keys on
 * two masters, within that class's budget.
 */
@Tag("slow")
class ClusterScenarioPropertyTests {

	static final int DEFAULT_TRIES = 6;

	static final int DEFAULT_BUDGET_SECONDS = 30;

	private static RedisCluster cluster;

	@BeforeAll
	static void startCluster() {
		cluster = RedisCluster.start();
	}

	@AfterAll
	static void stopCluster() {
		cluster.close();
	}

	@Test
	void aClusterKeepsTheInvariantsAndBoundsItsScriptsInGeneratedInterleavings() throws Exception {
		List<String> keys = IntStream.range(0, 4).mapToObj(QueueScenario::key).toList();
		assertThat(keys.stream().map((key) -> cluster.nodeServing(LockEngines.KEYS.lockKey(key))).distinct())
			.as("the scenario keys lie on every master")
			.hasSize(cluster.nodes().size());
		ScenarioTries.run(
				RedisScenarioStore.sharded(cluster.nodes(), LockEngines.onConnections(cluster::connectionFactory)),
				DEFAULT_TRIES, DEFAULT_BUDGET_SECONDS);
	}

	@Test
	void readersWritersAndPermitHoldersKeepTheInvariantsOnAClusterInGeneratedInterleavings() throws Exception {
		assertThat(cluster.nodeServing(LockEngines.KEYS.lockKey(QueueScenario.key(0))).port())
			.as("the two keys of the scenarios lie on two masters")
			.isNotEqualTo(cluster.nodeServing(LockEngines.KEYS.lockKey(QueueScenario.key(1))).port());
		ScenarioTries.run(
				RedisScenarioStore.sharded(cluster.nodes(), LockEngines.onConnections(cluster::connectionFactory)),
				QueueScenario::generateModes, ModesScenarioPropertyTests.DEFAULT_TRIES,
				ModesScenarioPropertyTests.DEFAULT_BUDGET_SECONDS);
	}

}
