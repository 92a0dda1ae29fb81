package dev.locksmith.adapters;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.locksmith.autoconfigure.LocksmithAopAutoConfiguration;
import dev.locksmith.autoconfigure.LocksmithAutoConfiguration;
import dev.locksmith.core.LockService;
import dev.locksmith.leader.autoconfigure.LocksmithLeaderAutoConfiguration;
import dev.locksmith.testing.RedisServer;

/** Application instances with leader elections auto-configured, each on a lock service of its own. */
public final class LeaderApplications {

	private LeaderApplications() {
	}

	/** Each run is one instance, as another process would run it, with a new service of {@code services}. */
	public static ApplicationContextRunner on(RedisLockServices services) {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, LocksmithLeaderAutoConfiguration.class))
			.withBean(LockService.class, services::newService);
	}

	/**
	 * Each run is one instance as an application runs it, with Locksmith and Spring Data Redis
	 * auto-configured on {@code redis}: its lock store started, so its waiters hear of releases.
	 */
	public static ApplicationContextRunner onRedis(RedisServer redis) {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, DataRedisAutoConfiguration.class,
					LocksmithAutoConfiguration.class, LocksmithAopAutoConfiguration.class,
					LocksmithLeaderAutoConfiguration.class))
			.withPropertyValues("spring.data.redis.port=" + redis.port());
	}

}
