package dev.locksmith.autoconfigure.health;

import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.test.context.FilteredClassLoader;

import dev.locksmith.actuate.ActuatorContexts;
import dev.locksmith.actuate.LocksEndpoint;
import dev.locksmith.actuate.LocksHealthIndicator;
import dev.locksmith.actuate.LostLeaseTracker;
import dev.locksmith.core.DefaultLockService;
import dev.locksmith.core.LockService;

import static dev.locksmith.actuate.ActuatorContexts.HOLD;
import static org.assertj.core.api.Assertions.assertThat;

/** When the health contributor is configured, how it backs off, and that locking goes on without Actuator or Micrometer. */
class LocksHealthContributorAutoConfigurationTests {

	@RegisterExtension
	static final ActuatorContexts contexts = new ActuatorContexts();

	@Test
	void contributesTheLocksHealth() {
		contexts.runner()
			.run((context) -> assertThat(context).hasSingleBean(LocksHealthIndicator.class)
				.hasBean("locksHealthIndicator"));
	}

	/** The same two names that Spring Boot's own Redis health backs off for, with their own prefix. */
	@ParameterizedTest
	@ValueSource(strings = { "locksHealthIndicator", "locksHealthContributor" })
	void backsOffForTheApplicationsOwnBeanOfEitherName(String name) {
		contexts.runner()
			.withBean(name, HealthIndicator.class, () -> () -> Health.up().build())
			.run((context) -> assertThat(context).doesNotHaveBean(LocksHealthIndicator.class).hasBean(name));
	}

	@Test
	void withoutActuatorOrMicrometerLockingStillWorks() {
		contexts.runner().withClassLoader(new FilteredClassLoader(Endpoint.class, HealthIndicator.class, MeterRegistry.class))
			.run((context) -> {
				assertThat(context).hasNotFailed()
					.doesNotHaveBean(LocksEndpoint.class)
					.doesNotHaveBean(LocksHealthIndicator.class)
					.getBean(LockService.class)
					.isInstanceOf(DefaultLockService.class);
				assertThat(context.getBean(LockService.class).tryAcquire("job", HOLD)).isPresent();
			});
	}

	@Test
	void theHealthContributorCanBeSwitchedOff() {
		contexts.runner().withPropertyValues("management.health.locks.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(LocksHealthIndicator.class)
				.doesNotHaveBean(LostLeaseTracker.class)
				.hasSingleBean(LocksEndpoint.class));
	}

}
