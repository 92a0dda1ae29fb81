package dev.locksmith.test.autoconfigure;

import java.time.Duration;
import java.util.concurrent.Callable;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnectionFactory;

import dev.locksmith.annotation.DistributedLock;
import dev.locksmith.annotation.LockMode;
import dev.locksmith.autoconfigure.LocksmithAopAutoConfiguration;
import dev.locksmith.autoconfigure.LocksmithAutoConfiguration;
import dev.locksmith.core.LockAdministration;
import dev.locksmith.core.LockStore;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockService;
import dev.locksmith.redis.RedisLockStore;
import dev.locksmith.test.LockAssertions;
import dev.locksmith.test.inmemory.InMemoryLockBackend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.catchThrowable;

/** How {@code locksmith.store=in-memory} sets Locksmith up without Redis, and when it stays out of the way. */
class InMemoryLockStoreConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(
			AutoConfigurations.of(LocksmithAutoConfiguration.class));

	@Test
	void theInMemoryStoreStartsWithoutARedisConnectionFactory() {
		this.runner.withPropertyValues("locksmith.store=in-memory").run((context) -> {
			assertThat(context).hasNotFailed()
				.doesNotHaveBean(RedisConnectionFactory.class)
				.hasSingleBean(LockService.class)
				.hasSingleBean(LockAdministration.class);
			assertThat(context).getBean(LockStore.class).isInstanceOf(InMemoryLockBackend.class);
			assertThat(context.getBean(LockAdministration.class).storeDescription()).isEqualTo("in-memory");
		});
	}

	@Test
	void locksOfTheInMemoryStoreExcludeOtherOwnersAndCarryIncreasingFencingTokens() {
		this.runner.withPropertyValues("locksmith.store=in-memory").run((context) -> {
			LockService locks = context.getBean(LockService.class);
			LockOptions options = LockOptions.ofTtl(Duration.ofSeconds(30));
			long first;
			try (LockHandle held = locks.acquire("account:42", options)) {
				first = held.fencingToken();
				assertThat(locks.tryAcquire("account:42", options)).as("another owner is refused").isEmpty();
				assertThat(context.getBean(LockAdministration.class).storedLocks(10)).singleElement()
					.satisfies((lock) -> assertThat(lock.key()).isEqualTo("account:42"));
			}
			try (LockHandle next = locks.acquire("account:42", options)) {
				assertThat(next.fencingToken()).isGreaterThan(first);
			}
		});
	}

	@Test
	void theInMemoryStoreIsChosenEvenWhereRedisIsConfigured() {
		this.runner.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class))
			.withPropertyValues("locksmith.store=IN_MEMORY")
			.run((context) -> {
				assertThat(context).hasSingleBean(RedisConnectionFactory.class).doesNotHaveBean(RedisLockStore.class);
				assertThat(context).getBean(LockStore.class).isInstanceOf(InMemoryLockBackend.class);
			});
	}

	@Test
	void redisStaysTheDefaultStoreWhenThisModuleIsOnTheClasspath() {
		this.runner.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class)).run((context) -> {
			assertThat(context).doesNotHaveBean(InMemoryLockBackend.class);
			assertThat(context).getBean(LockStore.class).isSameAs(context.getBean(RedisLockStore.class));
		});
	}

	@Test
	void backsOffWhenTheApplicationDefinesItsOwnLockStore() {
		this.runner.withPropertyValues("locksmith.store=in-memory")
			.withUserConfiguration(CustomLockBackend.class)
			.run((context) -> {
				assertThat(context).hasSingleBean(LockService.class).hasSingleBean(LockStore.class);
				assertThat(context.getBean(LockStore.class)).isSameAs(CustomLockBackend.BACKEND);
			});
	}

	@Test
	void isOffWhenLocksmithIsDisabled() {
		this.runner.withPropertyValues("locksmith.store=in-memory", "locksmith.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(LockStore.class).doesNotHaveBean(LockService.class));
	}

	@Test
	void annotatedMethodsLockOnTheInMemoryStore() {
		withAnnotated(LockedReport.class).run((context) -> {
			LockService locks = context.getBean(LockService.class);
			boolean freeInside = context.getBean(LockedReport.class)
				.run(() -> locks.tryAcquire("report", locks.options()).isPresent());
			assertThat(freeInside).as("another owner is refused while the method runs").isFalse();
			assertThat(locks.tryAcquire("report", locks.options())).as("released afterwards").isPresent();
		});
	}

	@Test
	void aFailedLockAssertionNamesTheAnnotatedMethodThatHoldsTheLock() {
		withAnnotated(LockedReport.class).run((context) -> {
			LockService locks = context.getBean(LockService.class);
			Throwable failure = context.getBean(LockedReport.class)
				.run(() -> catchThrowable(() -> LockAssertions.assertThat(locks).doesNotHold("report")));
			assertThat(failure).hasMessageContaining("lock 'report'")
				.hasMessageContaining("held by LockedReport.run(");
		});
	}

	@Test
	void aReadCallNestedInAWriteOfTheSameKeyTakesAHoldOnTheWriteLock() {
		withAnnotated(Ledger.class).run((context) -> {
			LockService locks = context.getBean(LockService.class);
			Ledger ledger = context.getBean(Ledger.class);
			boolean freeInside = ledger.write("acct-1", () -> ledger.read("acct-1",
					() -> locks.tryAcquire("ledger:acct-1", locks.options().withMode(LockMode.READ)).isPresent()));
			assertThat(freeInside).as("another reader is refused while the writer holds it").isFalse();
			assertThat(locks.isLocked("ledger:acct-1")).as("released with the write call").isFalse();
		});
	}

	@Test
	void aWriteCallNestedInAReadOfTheSameKeyFailsAtOnceAndFreesTheReadLock() {
		withAnnotated(Ledger.class).run((context) -> {
			Ledger ledger = context.getBean(Ledger.class);
			assertThatIllegalStateException().isThrownBy(() -> ledger.read("acct-2", () -> ledger.write("acct-2", () -> true)))
				.withMessageContaining("as a writer while this thread holds it as a reader: a read lock cannot be upgraded");
			assertThat(context.getBean(LockService.class).isLocked("ledger:acct-2")).isFalse();
		});
	}

	/** The in-memory store, the {@code @DistributedLock} aspect and {@code bean}, whose methods are annotated. */
	private ApplicationContextRunner withAnnotated(Class<?> bean) {
		return this.runner
			.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, LocksmithAopAutoConfiguration.class))
			.withPropertyValues("locksmith.store=in-memory")
			.withBean(bean);
	}

	@Configuration(proxyBeanMethods = false)
	static class CustomLockBackend {

		static final LockStore BACKEND = new InMemoryLockBackend();

		@Bean
		LockStore customLockBackend() {
			return BACKEND;
		}

	}

	static class Ledger {

		/** Runs {@code inside} while reading the ledger {@code id}. */
		@DistributedLock(name = "ledger", key = "#id", mode = LockMode.READ)
		public <T> T read(String id, Callable<T> inside) throws Exception {
			return inside.call();
		}

		/** Runs {@code inside} while writing the ledger {@code id}. */
		@DistributedLock(name = "ledger", key = "#id")
		public <T> T write(String id, Callable<T> inside) throws Exception {
			return inside.call();
		}

	}

	static class LockedReport {

		/** Runs {@code inside} while holding the lock 'report'. */
		@DistributedLock(name = "report")
		public <T> T run(Callable<T> inside) throws Exception {
			return inside.call();
		}

	}

}
