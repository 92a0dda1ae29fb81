package dev.locksmith.redis;

import java.time.Duration;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.locksmith.testing.RedisCluster;
import dev.locksmith.testing.RedisClusterExtension;
import dev.locksmith.testing.RedisServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Read locks and permits ({@link SharedLockTests}) on a real three-master Redis Cluster, each engine
 * with its own cluster connections and its subscriber on the cluster's pub/sub: the writer under a
 * stream of readers within the same bound as on one Redis, and the mixed load's two keys on two masters.
 */
@Tag("slow")
class RedisClusterReadWriteLockTests extends SharedLockTests {

	@RegisterExtension
	static final RedisClusterExtension redisCluster = new RedisClusterExtension();

	@Override
	LockEngines startEngines(int count, Duration recheckInterval) {
		RedisCluster cluster = redisCluster.cluster();
		return new LockEngines(count, recheckInterval, LockEngines.onConnections(cluster::connectionFactory));
	}

	@Override
	RedisServer nodeServing(String key) {
		return redisCluster.cluster().nodeServing(LockEngines.KEYS.lockKey(key));
	}

	@Test
	void theMixedLoadsKeysLieOnTwoMasters() {
		assertThat(nodeServing(ModesLoad.READ_KEY).port()).isNotEqualTo(nodeServing(ModesLoad.PERMITS_KEY).port());
	}

}
