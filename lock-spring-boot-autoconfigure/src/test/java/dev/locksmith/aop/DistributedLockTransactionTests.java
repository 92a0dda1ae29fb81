package dev.locksmith.aop;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.JdbcTemplateAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration;
import org.springframework.boot.transaction.autoconfigure.TransactionManagerCustomizationAutoConfiguration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import dev.locksmith.annotation.DistributedLock;
import dev.locksmith.autoconfigure.LocksmithAopAutoConfiguration;
import dev.locksmith.autoconfigure.LocksmithAutoConfiguration;
import dev.locksmith.core.LockContext;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockLostException;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockService;
import dev.locksmith.testing.RedisServerExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/** The lock wraps {@code @Transactional}: taken before the transaction begins, released after it commits. */
class DistributedLockTransactionTests {

	@RegisterExtension
	static final RedisServerExtension redisServer = new RedisServerExtension();

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, DataRedisAutoConfiguration.class,
				DataSourceAutoConfiguration.class, DataSourceTransactionManagerAutoConfiguration.class,
				JdbcTemplateAutoConfiguration.class, TransactionAutoConfiguration.class,
				TransactionManagerCustomizationAutoConfiguration.class, LocksmithAutoConfiguration.class,
				LocksmithAopAutoConfiguration.class))
		.withPropertyValues("spring.data.redis.port=" + redisServer.server().port(),
				"spring.datasource.generate-unique-name=true")
		.withBean(Payments.class);

	@Test
	void theTransactionCommitsWhileTheLockIsStillHeld() {
		this.runner.run((context) -> {
			JdbcTemplate jdbc = context.getBean(JdbcTemplate.class);
			jdbc.execute("create table payment (id varchar(20) primary key)");
			Payments payments = context.getBean(Payments.class);

			payments.pay("p-1");

			assertThat(payments.observations()).containsExactly("transaction active, lock busy for others: true",
					"committed, lock busy for others: true");
			assertThat(jdbc.queryForObject("select count(*) from payment", Integer.class)).isOne();
			assertThat(context.getBean(LockService.class).tryAcquire("payments:p-1", LockOptions.ofTtl(Duration.ofSeconds(30))))
				.as("released after the commit")
				.isPresent();
		});
	}

	@Test
	void aTransactionWhoseLeaseIsLostBeforeCommitRollsBack() {
		this.runner.run((context) -> {
			JdbcTemplate jdbc = context.getBean(JdbcTemplate.class);
			jdbc.execute("create table payment (id varchar(20) primary key)");
			Payments payments = context.getBean(Payments.class);

			assertThatExceptionOfType(LockLostException.class)
				.isThrownBy(() -> payments.payWhileLosingTheLease("p-2",
						() -> redisServer.server().command("DEL", "lock:{payments:p-2}")))
				.satisfies((lost) -> assertThat(lost.getKey()).isEqualTo("payments:p-2"));
			assertThat(jdbc.queryForObject("select count(*) from payment", Integer.class)).isZero();
		});
	}

	static class Payments {

		private final JdbcTemplate jdbc;

		private final LockService locks;

		private final List<String> observations = new CopyOnWriteArrayList<>();

		Payments(JdbcTemplate jdbc, LockService locks) {
			this.jdbc = jdbc;
			this.locks = locks;
		}

		@Transactional
		@DistributedLock(name = "payments", key = "#id")
		public void pay(String id) {
			this.jdbc.update("insert into payment (id) values (?)", id);
			this.observations.add("transaction active, lock busy for others: " + busy(id));
			TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {

				@Override
				public void afterCommit() {
					Payments.this.observations.add("committed, lock busy for others: " + busy(id));
				}

			});
		}

		@Transactional
		@DistributedLock(name = "payments", key = "#id", ttl = "600ms")
		public void payWhileLosingTheLease(String id, Runnable loseTheLease) {
			this.jdbc.update("insert into payment (id) values (?)", id);
			loseTheLease.run();
			LockHandle handle = LockContext.current().orElseThrow();
			await().atMost(Duration.ofSeconds(10)).until(() -> !handle.isHeld());
		}

		public List<String> observations() {
			return this.observations;
		}

		private boolean busy(String id) {
			try {
				return this.locks.tryAcquire("payments:" + id, this.locks.options()).isEmpty();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException(ex);
			}
		}

	}

}
