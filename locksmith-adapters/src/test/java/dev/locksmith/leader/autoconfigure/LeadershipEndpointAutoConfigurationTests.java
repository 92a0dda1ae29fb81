package dev.locksmith.leader.autoconfigure;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.locksmith.adapters.RedisLockServices;
import dev.locksmith.core.DefaultLockService;
import dev.locksmith.core.LockAdministration;
import dev.locksmith.core.LockService;
import dev.locksmith.leader.actuate.LeadershipEndpoint;
import dev.locksmith.redis.RedisLockStore;
import dev.locksmith.testing.RedisServerExtension;

import static org.assertj.core.api.Assertions.assertThat;

/** When the {@code leadership} endpoint is configured: Actuator present, the endpoint exposed, a lock store to ask. */
class LeadershipEndpointAutoConfigurationTests {

	@RegisterExtension
	static final RedisServerExtension redisServer = new RedisServerExtension();

	private final RedisLockServices services = new RedisLockServices(redisServer.server());

	private final LettuceConnectionFactory connections = redisServer.server().connectionFactory();

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(LocksmithLeaderAutoConfiguration.class, LeadershipEndpointAutoConfiguration.class))
		.withPropertyValues("management.endpoints.web.exposure.include=leadership")
		.withBean(LockService.class, this.services::newService);

	@AfterEach
	void close() throws Exception {
		this.services.close();
		this.connections.destroy();
	}

	@Test
	void anExposedEndpointIsConfiguredWithALockStoreToAsk() {
		this.contextRunner.withBean(LockAdministration.class, this::administration)
			.run((context) -> assertThat(context).hasSingleBean(LeadershipEndpoint.class));
	}

	@Test
	void withoutActuatorThereIsNoEndpoint() {
		this.contextRunner.withBean(LockAdministration.class, this::administration)
			.withClassLoader(new FilteredClassLoader(Endpoint.class))
			.run((context) -> assertThat(context).doesNotHaveBean(LeadershipEndpoint.class));
	}

	@Test
	void withoutALockStoreToAskThereIsNoEndpoint() {
		this.contextRunner.run((context) -> assertThat(context).doesNotHaveBean(LeadershipEndpoint.class));
	}

	private LockAdministration administration() {
		return DefaultLockService.builder(RedisLockStore.builder(this.connections).build()).build().administration();
	}

}
