package dev.locksmith.aop;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.logging.LogLevel;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Schedulers;

import dev.locksmith.aop.LockedServices.Accounts;
import dev.locksmith.aop.LockedServices.AccountsImpl;
import dev.locksmith.aop.LockedServices.CallLog;
import dev.locksmith.aop.LockedServices.Customer;
import dev.locksmith.aop.LockedServices.Order;
import dev.locksmith.aop.LockedServices.Shop;
import dev.locksmith.aop.LockedServices.Tenant;
import dev.locksmith.core.LockBusyException;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockService;
import dev.locksmith.redis.TestLockKeys;
import dev.locksmith.testing.CommandMonitor;
import dev.locksmith.testing.RedisServer;
import dev.locksmith.testing.RedisServerExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/** {@code @DistributedLock} on real Spring beans, proxies and a real Redis. */
@ExtendWith(OutputCaptureExtension.class)
class DistributedLockAspectTests {

	@RegisterExtension
	static final RedisServerExtension redisServer = new RedisServerExtension();

	private static final LockOptions HOLD = LockOptions.ofTtl(Duration.ofSeconds(30));

	private RedisServer redis;

	private ApplicationContextRunner runner;

	@BeforeEach
	void configure() {
		this.redis = redisServer.server();
		this.runner = AspectContexts.onRedis(this.redis)
			.withPropertyValues("shop.lease=2s", "shop.wait=1500ms")
			.withUserConfiguration(Services.class);
	}

	@ParameterizedTest(name = "proxy-target-class={0}")
	@ValueSource(booleans = { true, false })
	void argumentNamesAndIndexesMakeTheKeyOnInterfaceAndClassProxies(boolean proxyTargetClass) {
		this.runner.withPropertyValues("spring.aop.proxy-target-class=" + proxyTargetClass).run((context) -> {
			Accounts accounts = context.getBean(Accounts.class);
			List<String> calls = context.getBean(CallLog.class).calls;
			try (LockHandle held = otherInstance(context).acquire("AccountsImpl.withdraw:42", HOLD);
					LockHandle balance = otherInstance(context).acquire("Accounts.balance:7", HOLD)) {
				assertThatExceptionOfType(LockBusyException.class).isThrownBy(() -> accounts.withdraw("42", 10))
					.withMessageContaining("'AccountsImpl.withdraw:******'")
					.satisfies((busy) -> assertThat(busy.getKey()).isEqualTo("AccountsImpl.withdraw:42"));
				assertThatExceptionOfType(LockBusyException.class).isThrownBy(() -> accounts.balance("7"));
				assertThat(accounts.withdraw("43", 10)).isPositive();
				assertThat(accounts.balance("8")).isPositive();
			}
			assertThat(calls).containsExactly("withdraw 43", "balance 8");
		});
	}

	@Test
	void theRunningCallSeesItsFencingTokenIncreaseFromCallToCall() {
		this.runner.run((context) -> {
			Accounts accounts = context.getBean(Accounts.class);
			long first = accounts.withdraw("42", 1);
			long second = accounts.withdraw("42", 1);

			assertThat(first).isPositive();
			assertThat(second).isGreaterThan(first);
		});
	}

	@Test
	void nestedPropertiesAndBeanReferencesMakeTheKey() {
		this.runner.run((context) -> {
			Shop shop = context.getBean(Shop.class);

			assertThat(shop.ship(new Order("o-1", new Customer("c-9")))).isEqualTo("Shop.ship:c-9");
			assertThat(shop.restock("sku-1")).isEqualTo("Shop.restock:acme/sku-1");
		});
	}

	@Test
	void aCollectionKeyLocksEveryElementInOneRoundTrip() {
		this.runner.run((context) -> {
			Shop shop = context.getBean(Shop.class);
			shop.lockAll(new String[] { "warm-up" });
			await().until(() -> this.redis.subscribers(TestLockKeys.releaseChannel("")) > 0);
			try (CommandMonitor monitor = this.redis.monitor()) {
				assertThat(shop.lockAll(new String[] { "x", "y", "z" })).isEqualTo(3);
				assertThat(monitor.clientCommands()).containsExactly("EVALSHA", "EVALSHA");
			}
			try (LockHandle y = otherInstance(context).acquire("ids:y", HOLD)) {
				assertThatExceptionOfType(LockBusyException.class)
					.isThrownBy(() -> shop.lockAll(new String[] { "x", "y" }));
				assertThat(otherInstance(context).tryAcquire("ids:x", HOLD)).as("x was not kept").isPresent();
			}
		});
	}

	@Test
	void transfersWithOverlappingAccountsRunConcurrentlyWithoutDeadlock() {
		this.runner.run((context) -> {
			Shop shop = context.getBean(Shop.class);
			List<CompletableFuture<Void>> transfers = new ArrayList<>();
			for (int t = 0; t < 4; t++) {
				boolean forward = t % 2 == 0;
				transfers.add(CompletableFuture.runAsync(() -> {
					for (int i = 0; i < 25; i++) {
						shop.transfer(forward ? "a" : "b", forward ? "b" : "a");
					}
				}));
			}
			CompletableFuture.allOf(transfers.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);

			assertThat(context.getBean(CallLog.class).calls).hasSize(100);
		});
	}

	@Test
	void skipTriesOnceWhateverTheGlobalWaitTime() {
		this.runner.withPropertyValues("locksmith.default-wait-time=10m").run((context) -> {
			Shop shop = context.getBean(Shop.class);
			try (LockHandle held = otherInstance(context).acquire("report", HOLD)) {
				assertTimeoutPreemptively(Duration.ofMinutes(1), () -> assertThat(shop.skipString()).isNull(),
						"a skipping method waited for the global 10 minutes");
			}
			assertThat(context.getBean(CallLog.class).calls).isEmpty();
		});
	}

	@Test
	void aSkipIsLoggedAtDebugWithTheLockNameAndNeverTheKey(CapturedOutput output) {
		LoggingSystem logging = LoggingSystem.get(getClass().getClassLoader());
		logging.setLogLevel(DistributedLockInterceptor.class.getName(), LogLevel.DEBUG);
		try {
			this.runner.run((context) -> {
				try (LockHandle held = otherInstance(context).acquire("invoice:secret-42", HOLD)) {
					assertThat(context.getBean(Shop.class).skipInvoice("secret-42")).isNull();
				}
				assertThat(output).contains("Skipped Shop.skipInvoice(String): lock 'invoice' is busy")
					.doesNotContain("secret-42");
			});
		}
		finally {
			logging.setLogLevel(DistributedLockInterceptor.class.getName(), null);
		}
	}

	@Test
	void annotatedMethodsAndTheProgrammaticOptionsShareTheConfiguredDefaults() {
		this.runner.withPropertyValues("locksmith.default-ttl=45s", "locksmith.default-wait-time=10s")
			.run((context) -> {
				LockOptions configured = LockOptions.ofTtl(Duration.ofSeconds(45)).withWaitTime(Duration.ofSeconds(10));
				LockDefinition ship = context.getBean(DistributedLockAdvisor.class).definitions()
					.find(Shop.class.getMethod("ship", LockedServices.Order.class), Shop.class);

				assertThat(context.getBean(LockService.class).options()).isEqualTo(configured);
				assertThat(ship.options()).isEqualTo(configured.withName("Shop.ship"));
			});
	}

	@Test
	void skipReturnsTheEmptyValueOfEachReturnTypeWithoutRunningTheMethod() {
		this.runner.run((context) -> {
			Shop shop = context.getBean(Shop.class);
			try (LockHandle held = otherInstance(context).acquire("report", HOLD)) {
				assertThat(shop.skipString()).isNull();
				assertThat(shop.skipOptional()).isEmpty();
				shop.skipVoid();
				assertThat(shop.skipFuture()).isCompletedWithValue(null);
				assertThat(shop.skipMono().blockOptional(Duration.ofSeconds(10))).isEmpty();
				assertThat(shop.skipFlux().collectList().block(Duration.ofSeconds(10))).isEmpty();
				assertThatExceptionOfType(LockBusyException.class).isThrownBy(shop::throwWhenBusy)
					.withMessageStartingWith("Lock 'report' is held by another owner (waited ")
					.withMessageEndingWith("ms)");
			}
			assertThat(context.getBean(CallLog.class).calls).isEmpty();
			assertThat(shop.skipString()).isEqualTo("ran");
			assertThat(shop.skipMono().block(Duration.ofSeconds(10))).isEqualTo("ran");
			assertThat(shop.skipFlux().collectList().block(Duration.ofSeconds(10))).containsExactly("r", "a", "n");
		});
	}

	@Test
	void aFutureKeepsItsLockUntilItCompletes() {
		this.runner.run((context) -> {
			Shop shop = context.getBean(Shop.class);
			LockService other = otherInstance(context);
			CompletableFuture<String> work = new CompletableFuture<>();

			CompletableFuture<String> result = shop.async("1", work);
			assertThat(other.tryAcquire("async:1", HOLD)).as("held after the method returned").isEmpty();
			work.complete("done");

			assertThat(result.get(10, TimeUnit.SECONDS)).isEqualTo("done");
			assertThat(other.tryAcquire("async:1", HOLD)).isPresent();
		});
	}

	@Test
	void aMonoKeepsItsLockUntilItCompletes() {
		this.runner.run((context) -> {
			Shop shop = context.getBean(Shop.class);
			Sinks.One<String> work = Sinks.one();

			CompletableFuture<String> result = shop.reactive("1", work.asMono()).toFuture();
			await().atMost(Duration.ofSeconds(10)).until(() -> this.redis.command("EXISTS", "lock:{reactive:1}").equals("1"));
			assertThat(result).isNotDone();
			work.tryEmitValue("done");

			assertThat(result.get(10, TimeUnit.SECONDS)).isEqualTo("done");
			await().atMost(Duration.ofSeconds(10)).until(() -> this.redis.command("EXISTS", "lock:{reactive:1}").equals("0"));
		});
	}

	@Test
	void aMonoSubscribedOnANonBlockingThreadAcquiresOnABlockingFriendlyOne() {
		this.runner.withBean(AcquiringThreads.class).run((context) -> {
			Shop shop = context.getBean(Shop.class);

			String result = shop.reactive("3", Mono.just("done"))
				.subscribeOn(Schedulers.parallel())
				.block(Duration.ofSeconds(10));

			assertThat(result).isEqualTo("done");
			assertThat(context.getBean(AcquiringThreads.class).names).singleElement()
				.asString()
				.startsWith("boundedElastic-");
		});
	}

	@Test
	void aMonoIsNotLockedUntilSubscribed() {
		this.runner.run((context) -> {
			Mono<String> notSubscribed = context.getBean(Shop.class).reactive("2", Mono.just("x"));

			assertThat(notSubscribed).isNotNull();
			assertThat(otherInstance(context).tryAcquire("reactive:2", HOLD)).isPresent();
		});
	}

	@Test
	void aNestedCallForAHeldKeyRunsWithoutAnotherRoundTripAlsoAReadInAWrite() {
		this.runner.run((context) -> {
			Shop shop = context.getBean(Shop.class);
			shop.outer("warm-up");
			await().until(() -> this.redis.subscribers(TestLockKeys.releaseChannel("")) > 0);
			try (CommandMonitor monitor = this.redis.monitor()) {
				assertThat(shop.outer("acct-1")).isPositive();
				assertThat(shop.writeThenRead("acct-2")).isPositive();
				assertThat(monitor.clientCommands()).containsExactly("EVALSHA", "EVALSHA", "EVALSHA", "EVALSHA");
			}
			assertThat(context.getBean(CallLog.class).calls).containsExactly("inner warm-up", "inner acct-1");
		});
	}

	@Test
	void aWriteCallNestedInAReadOfTheSameKeyFailsAtOnceAndFreesTheReadLock() {
		this.runner.run((context) -> {
			Shop shop = context.getBean(Shop.class);

			assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> shop.readThenWrite("acct-3"))
				.withMessageStartingWith("Shop.inner(String) asks for lock 'ledger:******' as a writer while this "
						+ "thread holds it as a reader: a read lock cannot be upgraded, as two readers that both upgrade "
						+ "would each wait for the other forever");
			assertThat(context.getBean(LockService.class).isLocked("ledger:acct-3")).isFalse();
			assertThat(context.getBean(CallLog.class).calls).isEmpty();
		});
	}

	@Test
	void twoApplicationsExcludeEachOtherPerKey() {
		this.runner.run((first) -> this.runner.run((second) -> {
			CountDownLatch started = new CountDownLatch(1);
			CountDownLatch finish = new CountDownLatch(1);
			CompletableFuture<String> holder = CompletableFuture
				.supplyAsync(() -> call(() -> first.getBean(Shop.class).slow("user-1", started, finish)));
			assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
			Shop secondShop = second.getBean(Shop.class);

			assertThatExceptionOfType(LockBusyException.class)
				.isThrownBy(() -> secondShop.slow("user-1", new CountDownLatch(1), new CountDownLatch(0)));
			assertThat(secondShop.slow("user-2", new CountDownLatch(1), new CountDownLatch(0))).isEqualTo("done user-2");
			finish.countDown();
			assertThat(holder.get(10, TimeUnit.SECONDS)).isEqualTo("done user-1");
			assertThat(secondShop.slow("user-1", new CountDownLatch(1), new CountDownLatch(0))).isEqualTo("done user-1");
		}));
	}

	@Test
	void ttlPlaceholdersAreResolvedFromTheEnvironment() {
		// The lease as this process counts it: 2s from before the grant, less the drift allowance.
		this.runner.run((context) -> assertThat(context.getBean(Shop.class).leaseMillis()).isBetween(1000L, 2000L));
	}

	@Test
	void waitTimePlaceholdersAreResolvedFromTheEnvironment() {
		this.runner.run((context) -> {
			Class<?> shop = AopUtils.getTargetClass(context.getBean(Shop.class));
			LockDefinition patient = context.getBean(DistributedLockAdvisor.class).definitions().find(shop.getMethod("patient"), shop);
			assertThat(patient.options().waitTime()).isEqualTo(Duration.ofMillis(1500));
		});
	}

	@Test
	void aNullKeyAtCallTimeIsRejectedAndTheMethodDoesNotRun() {
		this.runner.run((context) -> {
			Shop shop = context.getBean(Shop.class);

			assertThatExceptionOfType(IllegalArgumentException.class).isThrownBy(() -> shop.nullableKey(null))
				.withMessage("@DistributedLock on Shop.nullableKey(String): key expression '#id' gave a null key; "
						+ "the method was not run");
			assertThatExceptionOfType(IllegalArgumentException.class).isThrownBy(() -> shop.nullableKey(" "))
				.withMessageContaining("gave a blank key");
			assertThat(context.getBean(CallLog.class).calls).isEmpty();
		});
	}

	@Test
	void aKeyWhoseToStringIsTheIdentityHashIsRejectedAndTheMethodDoesNotRun() {
		this.runner.run((context) -> {
			Shop shop = context.getBean(Shop.class);

			assertThatExceptionOfType(IllegalArgumentException.class)
				.isThrownBy(() -> shop.checkout(new LockedServices.Cart()))
				.withMessageStartingWith("@DistributedLock on Shop.checkout(Cart): key expression '#cart' gave a "
						+ LockedServices.Cart.class.getName() + ", whose toString() is Object's identity hash");
			assertThat(context.getBean(CallLog.class).calls).isEmpty();
		});
	}

	private static LockService otherInstance(AssertableApplicationContext context) {
		return context.getBean(LockService.class);
	}

	private static <T> T call(Callable<T> action) {
		try {
			return action.call();
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	/** Records the threads on which locks are acquired, by wrapping the application's lock service. */
	static class AcquiringThreads implements BeanPostProcessor {

		final List<String> names = new CopyOnWriteArrayList<>();

		@Override
		public Object postProcessAfterInitialization(Object bean, String beanName) {
			if (!(bean instanceof LockService locks)) {
				return bean;
			}
			return new ForwardingLockService(locks) {

				@Override
				public Optional<LockHandle> tryAcquireAll(Collection<String> keys, LockOptions options)
						throws InterruptedException {
					AcquiringThreads.this.names.add(Thread.currentThread().getName());
					return super.tryAcquireAll(keys, options);
				}

			};
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class Services {

		@Bean
		CallLog callLog() {
			return new CallLog();
		}

		@Bean
		AccountsImpl accounts(CallLog log) {
			return new AccountsImpl(log);
		}

		@Bean
		Shop shop(CallLog log) {
			return new Shop(log);
		}

		@Bean
		Tenant tenant() {
			return new Tenant();
		}

	}

}
