package dev.locksmith.redis;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.locksmith.testing.RedisServer;
import dev.locksmith.testing.RedisVersion;

/**
 * The lock contract on a standalone {@code redis-server} of each tested version, the bundled 6.2 and the
 * system's 7.x: each run is named after the version it ran on, such as {@code [2] Redis 7.0.15 (system)}.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(RedisVersion.class)
class RedisLockBackendContractTests extends RedisDeploymentContractTests {

	static RedisServer redis;

	/** The version of this run, injected by JUnit; {@link #startRedis} starts its server. */
	@Parameter
	RedisVersion version;

	@BeforeParameterizedClassInvocation
	static void startRedis(RedisVersion version) {
		redis = RedisServer.start(version);
	}

	@AfterParameterizedClassInvocation
	static void stopRedis() {
		redis.close();
	}

	@BeforeEach
	void emptyRedis() {
		redis.command("FLUSHALL");
	}

	@Override
	protected LettuceConnectionFactory connect() {
		return redis.connectionFactory();
	}

}
