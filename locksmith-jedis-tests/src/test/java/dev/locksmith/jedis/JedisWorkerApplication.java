package dev.locksmith.jedis;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The application of the worker JVMs: Spring Boot's Redis on Jedis and Locksmith, auto-configured, with
 * waiters that ask Redis again only every 30s, so that only a release notification wakes them in time.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
class JedisWorkerApplication {

	/** Starts the application on the Redis on loopback {@code port}, with its shutdown hook. */
	static ConfigurableApplicationContext run(int port) {
		return new SpringApplicationBuilder(JedisWorkerApplication.class).web(WebApplicationType.NONE)
			.logStartupInfo(false)
			.run("--spring.data.redis.port=" + port, "--locksmith.wait.recheck-interval=30s");
	}

}
