package dev.locksmith.jedis;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.util.ClassUtils;

import dev.locksmith.autoconfigure.LocksmithAutoConfiguration;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockService;
import dev.locksmith.testing.RedisServerExtension;

import static org.assertj.core.api.Assertions.assertThat;

/** Spring Boot's Redis auto-configuration on Jedis, Lettuce absent, with Locksmith's on top. */
class JedisAutoConfigurationTests {

	@RegisterExtension
	static final RedisServerExtension redisServer = new RedisServerExtension();

	private static final LockOptions HOLD = LockOptions.ofTtl(Duration.ofSeconds(30));

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, LocksmithAutoConfiguration.class))
		.withPropertyValues("spring.data.redis.port=" + redisServer.server().port());

	@Test
	void lettuceIsNotOnTheClassPath() {
		assertThat(ClassUtils.isPresent("io.lettuce.core.RedisClient", null)).isFalse();
	}

	@Test
	void theRedisStoreLocksThroughJedisAndExcludesASecondOwner() {
		this.runner.run((context) -> {
			assertThat(context).hasSingleBean(LockService.class);
			assertThat(context.getBean(RedisConnectionFactory.class)).isInstanceOf(JedisConnectionFactory.class);
			LockService locks = context.getBean(LockService.class);
			this.runner.run((secondOwner) -> {
				LockService others = secondOwner.getBean(LockService.class);
				LockHandle held = locks.tryAcquire("orders:1", HOLD).orElseThrow();
				assertThat(redisServer.server().command("EXISTS", "lock:{orders:1}")).isEqualTo("1");
				assertThat(others.tryAcquire("orders:1", HOLD)).isEmpty();
				held.close();
				assertThat(others.tryAcquire("orders:1", HOLD)).isPresent();
			});
		});
	}

	@Test
	void redlockStopsTheStartupSayingItNeedsLettuce() {
		this.runner
			.withPropertyValues("locksmith.store=redlock",
					"locksmith.redlock.nodes=redis://127.0.0.1:1,redis://127.0.0.1:2,redis://127.0.0.1:3")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).rootCause()
					.hasMessageContaining("locksmith.store=redlock: it needs Lettuce on the class path");
			});
	}

}
