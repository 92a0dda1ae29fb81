package dev.locksmith.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;
import org.springframework.context.event.EventListener;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.locksmith.annotation.DistributedLock;
import dev.locksmith.aop.DistributedLockAdvisor;
import dev.locksmith.aop.DistributedLockMethodValidator;
import dev.locksmith.autoconfigure.endpoint.LocksEndpointAutoConfiguration;
import dev.locksmith.autoconfigure.health.LocksHealthContributorAutoConfiguration;
import dev.locksmith.core.DefaultLockService;
import dev.locksmith.core.FencedValues;
import dev.locksmith.core.LockStore;
import dev.locksmith.core.LockBusyException;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockLostEvent;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockService;
import dev.locksmith.core.LockUnavailableException;
import dev.locksmith.redis.RedisFencedValues;
import dev.locksmith.redis.RedisLockStore;
import dev.locksmith.testing.RedisServer;
import dev.locksmith.testing.RedisServerExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/** The auto-configuration's conditions, properties and failures, on a real Redis. */
class LocksmithAutoConfigurationTests {

	@RegisterExtension
	static final RedisServerExtension redisServer = new RedisServerExtension();

	private static RedisServer redis;

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, LocksmithAutoConfiguration.class));

	/** Every Locksmith auto-configuration, in the order the imports file lists them. */
	private static final AutoConfigurations ALL_OF_LOCKSMITH = AutoConfigurations.of(LocksmithAutoConfiguration.class,
			LocksmithAopAutoConfiguration.class, LocksEndpointAutoConfiguration.class,
			LocksHealthContributorAutoConfiguration.class);

	@BeforeAll
	static void findRedis() {
		redis = redisServer.server();
	}

	private ApplicationContextRunner onRedis() {
		return this.runner.withPropertyValues("spring.data.redis.port=" + redis.port());
	}

	@Test
	void providesALockServiceOnTheApplicationsRedis() {
		onRedis().withPropertyValues("locksmith.key-prefix=app:").run((context) -> {
			assertThat(context).hasSingleBean(LockService.class)
				.hasSingleBean(LockStore.class)
				.hasSingleBean(RedisLockStore.class);
			try (LockHandle handle = context.getBean(LockService.class)
				.acquire("orders:1", LockOptions.ofTtl(Duration.ofSeconds(30)))) {
				assertThat(redis.command("EXISTS", "app:{orders:1}")).isEqualTo("1");
			}
		});
	}

	@Test
	void providesFencedValuesOnTheLocksRedis() {
		onRedis().run((context) -> {
			FencedValues values = context.getBean(FencedValues.class);
			assertThat(values).isInstanceOf(RedisFencedValues.class);
			assertThat(values.write("stock:apple", "7", 20)).isTrue();
			assertThat(values.write("stock:apple", "3", 10)).isFalse();
			assertThat(redis.command("HGET", "stock:apple", "value")).isEqualTo("7");
		});
	}

	@Test
	void backsOffWhenTheApplicationDefinesItsOwnLockService() {
		onRedis().withUserConfiguration(CustomLockService.class).run((context) -> {
			assertThat(context).hasSingleBean(LockService.class);
			assertThat(context.getBean(LockService.class)).isSameAs(context.getBean(CustomLockService.class).lockService);
		});
	}

	@Test
	void startsWithTheApplicationsOwnLockServiceAndNoRedis() {
		new ApplicationContextRunner().withConfiguration(ALL_OF_LOCKSMITH)
			.withBean(SimpleMeterRegistry.class)
			.withUserConfiguration(CustomLockService.class)
			.run((context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(LocksmithProperties.class)
				.hasSingleBean(DistributedLockAdvisor.class)
				.doesNotHaveBean(LockStore.class));
	}

	@Test
	void theEngineKeepsItsTypeWithMicrometerPresent() {
		onRedis().withConfiguration(ALL_OF_LOCKSMITH).withBean(SimpleMeterRegistry.class).run((context) -> {
			assertThat(context).hasSingleBean(DefaultLockService.class);
			assertThat(context.getBean(LockService.class)).isSameAs(context.getBean(DefaultLockService.class));
		});
	}

	@Test
	void twoConnectionFactoriesAndNoPrimaryStopTheStartupInsteadOfLeavingMethodsUnlocked() {
		onRedis().withUserConfiguration(TwoConnectionFactories.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(NoLockStoreException.class)
				.hasMessageContaining("'firstConnectionFactory', 'secondConnectionFactory'");
		});
	}

	@Test
	void usesThePrimaryOfSeveralConnectionFactories() {
		onRedis().withUserConfiguration(TwoConnectionFactories.class, PrimaryConnectionFactory.class)
			.run((context) -> {
				LockService locks = context.getBean(LockService.class);
				try (LockHandle handle = locks.acquire("primary", LockOptions.ofTtl(Duration.ofSeconds(30)))) {
					assertThat(redis.command("EXISTS", "lock:{primary}")).isEqualTo("1");
				}
			});
	}

	@Test
	void anAnnotatedMethodIsLockedEvenWithoutSpringBootsAutoProxying() {
		ApplicationContextRunner locked = onRedis().withConfiguration(ALL_OF_LOCKSMITH)
			.withBean(Reports.class);
		locked.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class))
			.withPropertyValues("spring.aop.auto=false")
			.run(this::runsOnlyUnderItsLock);
		locked.run(this::runsOnlyUnderItsLock);
	}

	private void runsOnlyUnderItsLock(AssertableApplicationContext context) throws InterruptedException {
		Reports reports = context.getBean(Reports.class);
		assertThat(AopUtils.isCglibProxy(reports)).as("proxied, subclassing its target").isTrue();
		try (LockHandle other = context.getBean(LockService.class).acquire("daily", LockOptions.ofTtl(Duration.ofSeconds(30)))) {
			assertThatExceptionOfType(LockBusyException.class).isThrownBy(reports::build);
		}
		assertThat(reports.build()).isEqualTo("built");
	}

	@Test
	void theMethodValidatorBacksOffForTheApplicationsOwn() {
		DistributedLockMethodValidator own = new DistributedLockMethodValidator(() -> new DistributedLockAdvisor(
				() -> null, new DefaultListableBeanFactory(), () -> Duration.ofSeconds(30), () -> Duration.ZERO));
		onRedis().withConfiguration(ALL_OF_LOCKSMITH)
			.withBean("distributedLockMethodValidator", DistributedLockMethodValidator.class, () -> own)
			.run((context) -> assertThat(context).getBean(DistributedLockMethodValidator.class).isSameAs(own));
	}

	@Test
	void isOffWhenDisabled() {
		onRedis().withPropertyValues("locksmith.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(LockService.class).doesNotHaveBean(LockStore.class));
	}

	@Test
	void withoutARedisConnectionFactoryTheStartupFailsSayingWhatTheStoreNeeds() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(LocksmithAutoConfiguration.class))
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).rootCause()
					.isInstanceOf(NoLockStoreException.class)
					.hasMessageStartingWith("No LockService could be set up for locksmith.store=redis: it needs a "
							+ "RedisConnectionFactory bean");
			});
	}

	@Test
	void renewalKeepsLeasesAliveUnlessSwitchedOff() {
		LockOptions shortLease = LockOptions.ofTtl(Duration.ofMillis(1500));
		onRedis().run((context) -> {
			LockHandle handle = context.getBean(LockService.class).acquire("renewed", shortLease);
			await().atMost(Duration.ofSeconds(10))
				.until(() -> context.getBean(LockService.class).heldLocks().get(0).renewals() >= 3);
			assertThat(handle.isHeld()).isTrue();
		});
		onRedis().withPropertyValues("locksmith.renewal.enabled=false").run((context) -> {
			LockHandle handle = context.getBean(LockService.class).acquire("not-renewed", shortLease);
			await().atMost(Duration.ofSeconds(10)).until(() -> redis.command("EXISTS", "lock:{not-renewed}").equals("0"));
			assertThat(handle.isHeld()).as("not held once Redis let the lease expire").isFalse();
		});
	}

	@Test
	void thePollStrategySubscribesToNothing() {
		onRedis().withPropertyValues("locksmith.wait.strategy=poll").run((context) -> {
			assertThat(context).hasSingleBean(LockService.class);
			LockService locks = context.getBean(LockService.class);
			try (LockHandle held = locks.acquire("polled", LockOptions.ofTtl(Duration.ofSeconds(30)))) {
				assertThat(locks.tryAcquire("polled", LockOptions.ofTtl(Duration.ofSeconds(30))
					.withWaitTime(Duration.ofMillis(200)))).isEmpty();
			}
			assertThat(redis.command("PUBSUB", "CHANNELS")).isEmpty();
		});
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|', textBlock = """
			locksmith.key-prefix=lock{x}:  | locksmith.key-prefix | must not contain '{' or '}'
			locksmith.instance-id=         | locksmith.instance-id | must not be blank
			""")
	void aBadPropertyStopsTheStartupNamingTheProperty(String property, String name, String reason) {
		onRedis().withPropertyValues(property).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).hasStackTraceContaining(name).hasStackTraceContaining(reason);
		});
	}

	/** The properties are plain data: the engine validates, and Spring Boot reports the property it rejected. */
	@Test
	void aValueTheEngineRejectsIsReportedAsAnInvalidProperty() {
		onRedis().withPropertyValues("locksmith.drift-allowance=-1ms").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOfSatisfying(InvalidConfigurationPropertyValueException.class, (invalid) -> {
					assertThat(invalid.getName()).isEqualTo("locksmith.drift-allowance");
					assertThat(invalid.getValue()).isEqualTo(Duration.ofMillis(-1));
					assertThat(invalid.getReason()).isEqualTo("driftAllowance must not be negative, was PT-0.001S");
				});
		});
	}

	@Test
	void withPollingAHandOverLeavesTheWaiterTwoRechecksToTakeTheLock() {
		onRedis().withPropertyValues("locksmith.wait.strategy=poll", "locksmith.wait.recheck-interval=5s")
			.run((context) -> {
				LockHandle held = context.getBean(LockService.class)
					.acquire("polled", LockOptions.ofTtl(Duration.ofSeconds(30)));
				redis.command("RPUSH", "lock:queue:{polled}", "other-instance:waiter");
				redis.command("HSET", "lock:deadlines:{polled}", "other-instance:waiter", "99999999999999");

				held.close();

				assertThat(redis.command("GET", "lock:{polled}")).isEqualTo("other-instance:waiter");
				assertThat(Long.parseLong(redis.command("PTTL", "lock:{polled}"))).as("claim lease of two 5s re-checks")
					.isGreaterThan(5_000);
			});
	}

	@Test
	void theLockScriptsAreLoadedAtStartupBeforeAnyLockCall() {
		redis.command("SCRIPT", "FLUSH");
		onRedis().run((context) -> {
			assertThat(context).hasSingleBean(LockService.class);
			await().atMost(Duration.ofSeconds(30))
				.until(() -> redis.command("INFO", "memory").contains("number_of_cached_scripts:3"));
		});
	}

	@Test
	void startsWhileRedisIsDownAndLocksOnceItIsBack() {
		int port = RedisServer.freePort();
		this.runner.withPropertyValues("spring.data.redis.port=" + port, "locksmith.redis-timeout=500ms")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				LockService locks = context.getBean(LockService.class);
				assertThatExceptionOfType(LockUnavailableException.class)
					.isThrownBy(() -> locks.tryAcquire("job", locks.options()));
				try (RedisServer late = RedisServer.startOn(port)) {
					await().atMost(Duration.ofSeconds(30))
						.ignoreException(LockUnavailableException.class)
						.until(() -> locks.tryAcquire("job", locks.options()).isPresent());
				}
			});
	}

	@Test
	void aLostLeaseIsPublishedAsAnApplicationEvent() {
		onRedis().withUserConfiguration(LostLeaseRecorder.class).run((context) -> {
			LockService locks = context.getBean(LockService.class);
			LockHandle handle = locks.acquire("report", LockOptions.ofTtl(Duration.ofMillis(600)));
			redis.command("DEL", "lock:{report}");

			List<LockLostEvent> lost = context.getBean(LostLeaseRecorder.class).events;
			await().atMost(Duration.ofSeconds(10)).until(() -> !lost.isEmpty());
			assertThat(lost).singleElement().satisfies((event) -> {
				assertThat(event.key()).isEqualTo("report");
				assertThat(event.fencingToken()).isEqualTo(handle.fencingToken());
			});
			assertThat(handle.isHeld()).isFalse();
			assertThat(locks.heldLocks()).isEmpty();
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class CustomLockService {

		final LockService lockService = DefaultLockService
			.builder(RedisLockStore.builder(new LettuceConnectionFactory()).keyPrefix("custom:").build())
			.build();

		@Bean
		LockService customLockService() {
			return this.lockService;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class TwoConnectionFactories {

		@Bean
		LettuceConnectionFactory firstConnectionFactory() {
			return new LettuceConnectionFactory("localhost", redis.port());
		}

		@Bean
		LettuceConnectionFactory secondConnectionFactory() {
			return new LettuceConnectionFactory("localhost", redis.port());
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class PrimaryConnectionFactory {

		@Bean
		@Primary
		LettuceConnectionFactory primaryConnectionFactory() {
			return new LettuceConnectionFactory("localhost", redis.port());
		}

	}

	/** Release notifications of the application's own, which deliver nothing: waiters re-check. */
	/** A bean with a locked method, called through whatever proxy the context made. */
	static class Reports {

		@DistributedLock(name = "daily")
		public String build() {
			return "built";
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class LostLeaseRecorder {

		final List<LockLostEvent> events = new CopyOnWriteArrayList<>();

		@EventListener
		void onLost(LockLostEvent event) {
			this.events.add(event);
		}

	}

}
