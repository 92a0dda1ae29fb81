package dev.locksmith.redis;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.locksmith.testing.RedisClusterExtension;

/** The lock contract on a real three-node Redis Cluster, where the keys of one operation span hash slots. */
@Tag("slow")
class RedisClusterLockStoreContractTests extends RedisDeploymentContractTests {

	@RegisterExtension
	static final RedisClusterExtension cluster = new RedisClusterExtension();

	@Override
	protected LettuceConnectionFactory connect() {
		return cluster.cluster().connectionFactory();
	}

}
