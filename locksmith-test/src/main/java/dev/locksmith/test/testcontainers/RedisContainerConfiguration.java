package dev.locksmith.test.testcontainers;

import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.testcontainers.service.connection.ServiceConnection;
import org.springframework.context.annotation.Bean;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * Runs Redis in a Testcontainers container and connects the application to it through Spring Boot's
 * {@link ServiceConnection}: import it into an integration test, and Locksmith locks on that Redis.
 * Needs a Docker engine, {@code spring-boot-testcontainers} and {@code org.testcontainers:testcontainers}.
 * <pre>{@code
 * @SpringBootTest
 * @Import(RedisContainerConfiguration.class)
 * class CheckoutIntegrationTests { ... }
 * }</pre>
 *
 * @since 0.1.0
 */
@TestConfiguration(proxyBeanMethods = false)
public class RedisContainerConfiguration {

	/** The image the container runs. */
	private static final DockerImageName REDIS_IMAGE = DockerImageName.parse("redis:7.4-alpine");

	private static final int REDIS_PORT = 6379;

	@Bean
	@ServiceConnection(name = "redis")
	GenericContainer<?> redisContainer() {
		return new GenericContainer<>(REDIS_IMAGE).withExposedPorts(REDIS_PORT);
	}

}
