package dev.locksmith.redis;

import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.locksmith.core.DefaultLockService;
import dev.locksmith.test.contract.LockStoreContractTests;

/**
 * The lock contract on a Redis deployment, through the fixture that {@code lock-spring-boot-autoconfigure}'s
 * tests use too ({@code locksmith-test-fixtures}): every service gets connections, release notifications and a
 * backend of its own.
 */
abstract class RedisDeploymentContractTests extends LockStoreContractTests {

	@RegisterExtension
	final RedisFixture fixture = new RedisFixture(this::connect);

	/** New, started connections to the deployment under test. */
	protected abstract LettuceConnectionFactory connect();

	@Override
	protected DefaultLockService.Builder newServiceBuilder() {
		return this.fixture.serviceBuilder();
	}

}
