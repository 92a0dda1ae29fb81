package dev.locksmith.redis;

import org.junit.jupiter.api.BeforeEach;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * The lock contract on each tested version as a Redis user restricted to exactly the ACL that
 * Locksmith documents ({@link LocksmithAcl}): a command, key or channel it uses that the ACL leaves
 * out fails here with {@code NOPERM}.
 */
class RedisAclContractTests extends RedisLockBackendContractTests {

	@BeforeEach
	void restrictTheUser() {
		LocksmithAcl.createUser(redis, LocksmithAcl.rules(RedisFixture.KEYS));
	}

	@Override
	protected LettuceConnectionFactory connect() {
		return LocksmithAcl.connectAsUser(redis);
	}

}
