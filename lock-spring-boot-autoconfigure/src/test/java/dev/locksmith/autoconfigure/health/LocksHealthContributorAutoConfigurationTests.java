package dev.locksmith.autoconfigure.health;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.locksmith.actuate.LocksHealthIndicator;
import dev.locksmith.autoconfigure.LocksmithAutoConfiguration;
import dev.locksmith.testing.RedisServerExtension;

import static org.assertj.core.api.Assertions.assertThat;

/** The locks health contributor, and how it backs off for the application's own. */
class LocksHealthContributorAutoConfigurationTests {

	@RegisterExtension
	static final RedisServerExtension redisServer = new RedisServerExtension();

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, LocksmithAutoConfiguration.class,
				LocksHealthContributorAutoConfiguration.class))
		.withPropertyValues("spring.data.redis.port=" + redisServer.server().port());

	@Test
	void contributesTheLocksHealth() {
		this.runner.run((context) -> assertThat(context).hasSingleBean(LocksHealthIndicator.class)
			.hasBean("locksHealthIndicator"));
	}

	/** The same two names that Spring Boot's own Redis health backs off for, with their own prefix. */
	@ParameterizedTest
	@ValueSource(strings = { "locksHealthIndicator", "locksHealthContributor" })
	void backsOffForTheApplicationsOwnBeanOfEitherName(String name) {
		this.runner.withBean(name, HealthIndicator.class, () -> () -> Health.up().build())
			.run((context) -> assertThat(context).doesNotHaveBean(LocksHealthIndicator.class).hasBean(name));
	}

}
