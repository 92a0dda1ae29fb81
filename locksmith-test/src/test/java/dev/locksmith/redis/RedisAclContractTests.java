package dev.locksmith.redis;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
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
 * system's 7.x, as a Redis user restricted to exactly the ACL that Locksmith documents
 * ({@link LocksmithAcl}): a command, key or channel it uses that the ACL leaves out fails here with
 * {@code NOPERM}. Each run is named after its version, such as {@code [2] Redis 7.0.15 (system)}.
 * <p>
 * The contract does not run a second time as the default user: that user may do all this one may, and
 * the Redis store's own tests ({@code RedisLockServiceTests}) connect as it.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(RedisVersion.class)
@Tag("slow")
class RedisAclContractTests extends RedisDeploymentContractTests {

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
	void emptyRedisAndRestrictTheUser() {
		redis.command("FLUSHALL");
		LocksmithAcl.createUser(redis, LocksmithAcl.rules(RedisFixture.KEYS));
	}

	@Override
	protected LettuceConnectionFactory connect() {
		return LocksmithAcl.connectAsUser(redis);
	}

}
