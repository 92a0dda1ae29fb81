package dev.locksmith.autoconfigure;

import java.time.Duration;
import java.util.concurrent.Callable;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.LazyInitializationBeanFactoryPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.locksmith.annotation.DistributedLock;
import dev.locksmith.core.DefaultLockService;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockService;
import dev.locksmith.redis.RedisLockStore;
import dev.locksmith.testing.RedisServer;
import dev.locksmith.testing.RedisServerExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An application with several {@code RedisConnectionFactory} beans: {@link LockConnectionFactory} picks
 * the one to lock on, and without a choice the startup fails naming them, instead of leaving
 * {@code @DistributedLock} methods unlocked.
 */
class LockConnectionFactoryTests {

	@RegisterExtension
	static final RedisServerExtension cacheRedis = new RedisServerExtension();

	@RegisterExtension
	static final RedisServerExtension sessionRedis = new RedisServerExtension();

	private static final LockOptions OTHER_OWNER = LockOptions.ofTtl(Duration.ofSeconds(30));

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, DataRedisAutoConfiguration.class,
				LocksmithAutoConfiguration.class, LocksmithAopAutoConfiguration.class))
		.withBean(Reports.class);

	@Test
	void twoConnectionFactoriesAndNoChoiceStopTheStartupNamingBothAndTheQualifier() {
		this.runner.withUserConfiguration(CacheAndSessionRedis.class).run((context) -> {
			assertThat(context).hasFailed();
			FailureAnalysis analysis = new NoLockStoreFailureAnalyzer().analyze(context.getStartupFailure());
			assertThat(analysis).as("analysed by Locksmith").isNotNull();
			assertThat(analysis.getDescription()).contains("needs one RedisConnectionFactory for its locks")
				.contains("has 2 and none is @Primary or @LockConnectionFactory: 'cacheConnectionFactory', "
						+ "'sessionConnectionFactory'")
				.contains("@DistributedLock methods would run without their locks");
			assertThat(analysis.getAction())
				.startsWith("Mark the connection factory that locks should use with "
						+ "@dev.locksmith.autoconfigure.LockConnectionFactory (on its @Bean method) or with @Primary")
				.contains("declare a LockService bean of your own");
		});
	}

	@Test
	void withLazyInitializationTheStartupFailsAllTheSame() {
		this.runner.withInitializer((context) -> context
			.addBeanFactoryPostProcessor(new LazyInitializationBeanFactoryPostProcessor()))
			.withUserConfiguration(CacheAndSessionRedis.class)
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).rootCause()
					.isInstanceOf(NoLockStoreException.class)
					.hasMessageContaining("'cacheConnectionFactory', 'sessionConnectionFactory'");
			});
	}

	@Test
	void withTheQualifierOnOneTheLockedMethodLocksOnThatOne() {
		this.runner.withUserConfiguration(CacheAndSessionRedis.class, SessionRedisForLocks.class)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				Reports reports = context.getBean(Reports.class);
				LettuceConnectionFactory connection = sessionRedis.server().connectionFactory();
				try (DefaultLockService otherOwner = DefaultLockService
					.builder(RedisLockStore.builder(connection).build())
					.build()) {
					boolean refusedInside = reports.build(() -> otherOwner.isLocked("daily")
							&& otherOwner.tryAcquire("daily", OTHER_OWNER).isEmpty()
							&& cacheRedis.server().command("EXISTS", "lock:{daily}").equals("0"));
					assertThat(refusedInside).as("held on the qualified Redis, and only there, while the method runs")
						.isTrue();
					assertThat(otherOwner.isLocked("daily")).as("released afterwards").isFalse();
				}
				finally {
					connection.destroy();
				}
			});
	}

	@Test
	void theQualifierWinsOverThePrimary() {
		this.runner.withUserConfiguration(CacheAndSessionRedis.class, PrimaryCacheRedis.class,
				SessionRedisForLocks.class).run((context) -> {
					context.getBean(LockService.class).runLocked("orders:1", OTHER_OWNER, () -> {
						assertThat(sessionRedis.server().command("EXISTS", "lock:{orders:1}")).isEqualTo("1");
						assertThat(cacheRedis.server().command("EXISTS", "lock:{orders:1}")).isEqualTo("0");
					});
				});
	}

	@Test
	void twoQualifiedConnectionFactoriesStopTheStartupNamingBoth() {
		this.runner.withUserConfiguration(CacheAndSessionRedis.class, SessionRedisForLocks.class,
				CacheRedisForLocks.class).run((context) -> {
					FailureAnalysis analysis = new NoLockStoreFailureAnalyzer().analyze(context.getStartupFailure());
					assertThat(analysis).isNotNull();
					assertThat(analysis.getDescription())
						.contains("2 are marked @LockConnectionFactory: 'lockConnectionFactory', "
								+ "'otherLockConnectionFactory'");
					assertThat(analysis.getAction()).isEqualTo(
							"Keep @dev.locksmith.autoconfigure.LockConnectionFactory on one connection factory only.");
				});
	}

	private static LettuceConnectionFactory connectionFactory(RedisServer server) {
		return new LettuceConnectionFactory("127.0.0.1", server.port());
	}

	@Configuration(proxyBeanMethods = false)
	static class CacheAndSessionRedis {

		@Bean
		LettuceConnectionFactory cacheConnectionFactory() {
			return connectionFactory(cacheRedis.server());
		}

		@Bean
		LettuceConnectionFactory sessionConnectionFactory() {
			return connectionFactory(sessionRedis.server());
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class SessionRedisForLocks {

		@Bean
		@LockConnectionFactory
		LettuceConnectionFactory lockConnectionFactory() {
			return connectionFactory(sessionRedis.server());
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class CacheRedisForLocks {

		@Bean
		@LockConnectionFactory
		LettuceConnectionFactory otherLockConnectionFactory() {
			return connectionFactory(cacheRedis.server());
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class PrimaryCacheRedis {

		@Bean
		@Primary
		LettuceConnectionFactory primaryConnectionFactory() {
			return connectionFactory(cacheRedis.server());
		}

	}

	/** A bean with a locked method, as an application has it. */
	static class Reports {

		@DistributedLock(name = "daily")
		public <T> T build(Callable<T> inside) throws Exception {
			return inside.call();
		}

	}

}
