package dev.locksmith.test.testcontainers;

import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.testcontainers.service.connection.ServiceConnection;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
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
 * The container runs {@value #DEFAULT_IMAGE} unless the property {@value #IMAGE_PROPERTY} (or the
 * environment variable {@code LOCKSMITH_TEST_REDIS_IMAGE}) names another image, such as a mirror of
 * your registry or a local build. The image must start a Redis on port 6379.
 *
 * @since 0.1.0
 */
@TestConfiguration(proxyBeanMethods = false)
public class RedisContainerConfiguration {

	/** The property that names the image the container runs. */
	public static final String IMAGE_PROPERTY = "locksmith.test.redis-image";

	/** The image the container runs unless {@value #IMAGE_PROPERTY} names another. */
	public static final String DEFAULT_IMAGE = "redis:7.4-alpine";

	private static final int REDIS_PORT = 6379;

	/** Creates the configuration; Spring does, when a test imports it. */
	public RedisContainerConfiguration() {
	}

	@Bean
	@ServiceConnection(name = "redis")
	GenericContainer<?> redisContainer(Environment environment) {
		return new GenericContainer<>(image(environment)).withExposedPorts(REDIS_PORT);
	}

	static DockerImageName image(Environment environment) {
		return DockerImageName.parse(environment.getProperty(IMAGE_PROPERTY, DEFAULT_IMAGE))
			.asCompatibleSubstituteFor("redis");
	}

}
