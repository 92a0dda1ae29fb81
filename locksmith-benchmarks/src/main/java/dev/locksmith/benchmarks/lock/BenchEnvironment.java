package dev.locksmith.benchmarks.lock;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * What the libraries of one JVM share: the Redis port, and the Spring application that both
 * Locksmith entry points are taken from, started on first use.
 */
public final class BenchEnvironment implements AutoCloseable {

	private final int redisPort;

	private @Nullable ConfigurableApplicationContext locksmithContext;

	public BenchEnvironment(int redisPort) {
		this.redisPort = redisPort;
	}

	public int redisPort() {
		return this.redisPort;
	}

	/** The running Locksmith application, configured by Spring Boot for this Redis. */
	synchronized ConfigurableApplicationContext locksmithContext() {
		if (this.locksmithContext == null) {
			SpringApplication application = new SpringApplication(LocksmithBenchApplication.class);
			application.setWebApplicationType(WebApplicationType.NONE);
			this.locksmithContext = application.run("--spring.data.redis.host=127.0.0.1",
					"--spring.data.redis.port=" + this.redisPort, "--spring.main.banner-mode=off",
					"--spring.main.log-startup-info=false");
		}
		return this.locksmithContext;
	}

	@Override
	public synchronized void close() {
		if (this.locksmithContext != null) {
			this.locksmithContext.close();
		}
	}

}
