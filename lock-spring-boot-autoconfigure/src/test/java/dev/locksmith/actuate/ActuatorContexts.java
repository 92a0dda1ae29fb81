package dev.locksmith.actuate;

import java.time.Duration;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.locksmith.autoconfigure.LocksmithAutoConfiguration;
import dev.locksmith.autoconfigure.endpoint.LocksEndpointAutoConfiguration;
import dev.locksmith.autoconfigure.health.LocksHealthContributorAutoConfiguration;
import dev.locksmith.core.LockOptions;
import dev.locksmith.testing.RedisServer;
import dev.locksmith.testing.RedisServerExtension;

/**
 * JUnit extension for the actuator's tests: one real Redis for the test class, emptied before each test,
 * and contexts with Locksmith, its endpoint (exposed) and its health contributor on it. Register it as a
 * static {@code @RegisterExtension} field.
 */
public final class ActuatorContexts implements BeforeAllCallback, BeforeEachCallback, AfterAllCallback {

	/** A lock held for longer than any test. */
	public static final LockOptions HOLD = LockOptions.ofTtl(Duration.ofSeconds(30));

	private final RedisServerExtension redis = new RedisServerExtension();

	@Override
	public void beforeAll(ExtensionContext context) {
		this.redis.beforeAll(context);
	}

	@Override
	public void beforeEach(ExtensionContext context) {
		this.redis.beforeEach(context);
	}

	@Override
	public void afterAll(ExtensionContext context) {
		this.redis.afterAll(context);
	}

	/** The Redis server of the test class. */
	public RedisServer redis() {
		return this.redis.server();
	}

	/** A runner on the test class's Redis, as instance {@code node-1}. */
	public ApplicationContextRunner runner() {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, LocksmithAutoConfiguration.class,
					LocksEndpointAutoConfiguration.class, LocksHealthContributorAutoConfiguration.class))
			.withPropertyValues("spring.data.redis.port=" + redis().port(), "locksmith.instance-id=node-1",
					"management.endpoints.web.exposure.include=locks");
	}

}
