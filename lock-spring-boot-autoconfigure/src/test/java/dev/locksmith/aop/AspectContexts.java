package dev.locksmith.aop;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.locksmith.autoconfigure.LocksmithAopAutoConfiguration;
import dev.locksmith.autoconfigure.LocksmithAutoConfiguration;
import dev.locksmith.testing.RedisServer;

/** Application contexts with Locksmith and its aspect auto-configured on a test Redis. */
final class AspectContexts {

	private AspectContexts() {
	}

	static ApplicationContextRunner onRedis(RedisServer redis) {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, DataRedisAutoConfiguration.class,
					LocksmithAutoConfiguration.class, LocksmithAopAutoConfiguration.class))
			.withPropertyValues("spring.data.redis.port=" + redis.port());
	}

}
