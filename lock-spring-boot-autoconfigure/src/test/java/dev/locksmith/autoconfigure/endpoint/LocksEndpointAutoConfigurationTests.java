package dev.locksmith.autoconfigure.endpoint;

import java.time.Duration;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.jmx.JmxEndpointAutoConfiguration;
import org.springframework.boot.actuate.endpoint.OperationType;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.jmx.ExposableJmxEndpoint;
import org.springframework.boot.actuate.endpoint.jmx.JmxEndpointsSupplier;
import org.springframework.boot.actuate.endpoint.jmx.JmxOperation;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.jmx.JmxAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;

import dev.locksmith.actuate.LocksEndpoint;
import dev.locksmith.actuate.LocksEndpoint.HeldLock;
import dev.locksmith.actuate.LocksEndpoint.InstanceLocks;
import dev.locksmith.autoconfigure.LocksmithAutoConfiguration;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockService;
import dev.locksmith.testing.RedisServerExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * When the locks endpoint is configured and which operations it serves, and its key visibility under
 * management.endpoint.locks.
 */
class LocksEndpointAutoConfigurationTests {

	@RegisterExtension
	static final RedisServerExtension redisServer = new RedisServerExtension();

	private ApplicationContextRunner runner;

	@BeforeEach
	void configure() {
		this.runner = new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, LocksmithAutoConfiguration.class,
					EndpointAutoConfiguration.class, LocksEndpointAutoConfiguration.class))
			.withPropertyValues("spring.data.redis.port=" + redisServer.server().port(),
					"management.endpoints.web.exposure.include=locks");
	}

	@Test
	void keysAreMaskedByDefault() {
		this.runner.run((context) -> assertThat(shownKey(context)).isEqualTo("******"));
	}

	@Test
	void showValuesShowsKeys() {
		this.runner.withPropertyValues("management.endpoint.locks.show-values=always")
			.run((context) -> assertThat(shownKey(context)).isEqualTo("invoice-42"));
	}

	@Test
	void theEndpointIsAbsentUntilExposed() {
		this.runner.withPropertyValues("management.endpoints.web.exposure.include=health")
			.run((context) -> assertThat(context).doesNotHaveBean(LocksEndpoint.class));
	}

	@Test
	void theEndpointIsAbsentWhenItsAccessIsNone() {
		this.runner.withPropertyValues("management.endpoint.locks.access=NONE")
			.run((context) -> assertThat(context).doesNotHaveBean(LocksEndpoint.class));
	}

	@Test
	void forcedReleaseIsServedOnlyWithUnrestrictedAccess() {
		ApplicationContextRunner discovered = withEndpointDiscovery();
		discovered.run((context) -> assertThat(locksOperations(context)).containsExactly(OperationType.READ));
		discovered.withPropertyValues("management.endpoint.locks.access=UNRESTRICTED")
			.run((context) -> assertThat(locksOperations(context)).containsExactlyInAnyOrder(OperationType.READ,
					OperationType.DELETE));
	}

	private static String shownKey(ApplicationContext context) throws InterruptedException {
		try (LockHandle held = context.getBean(LockService.class)
			.acquire("invoice-42", LockOptions.ofTtl(Duration.ofSeconds(30)))) {
			InstanceLocks locks = (InstanceLocks) context.getBean(LocksEndpoint.class).locks(null, null, SecurityContext.NONE);
			return locks.locks().stream().map(HeldLock::key).findFirst().orElseThrow();
		}
	}

	/** Actuator's own discovery of endpoints and their operations, over JMX, which needs no web server. */
	private ApplicationContextRunner withEndpointDiscovery() {
		return this.runner
			.withConfiguration(AutoConfigurations.of(JmxAutoConfiguration.class, EndpointAutoConfiguration.class,
					JmxEndpointAutoConfiguration.class))
			.withPropertyValues("spring.jmx.enabled=true", "management.endpoints.jmx.exposure.include=locks");
	}

	private static Set<OperationType> locksOperations(ApplicationContext context) {
		ExposableJmxEndpoint locks = context.getBean(JmxEndpointsSupplier.class)
			.getEndpoints()
			.stream()
			.filter((endpoint) -> endpoint.getEndpointId().toString().equals("locks"))
			.findFirst()
			.orElseThrow();
		return locks.getOperations().stream().map(JmxOperation::getType).collect(Collectors.toSet());
	}

}
