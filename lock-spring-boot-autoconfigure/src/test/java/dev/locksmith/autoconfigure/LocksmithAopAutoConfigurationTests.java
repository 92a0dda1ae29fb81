package dev.locksmith.autoconfigure;

import java.time.Duration;
import java.util.concurrent.Callable;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.aop.framework.Advised;
import org.springframework.aop.support.AopUtils;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.JdbcTemplateAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.annotation.EnableTransactionManagement;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import dev.locksmith.annotation.DistributedLock;
import dev.locksmith.aop.DistributedLockAdvisor;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockService;
import dev.locksmith.testing.RedisServerExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code @DistributedLock} aspect wherever proxies come from: Spring Boot's auto-proxying, the
 * application's own auto-proxy creator, or none at all ({@code spring.aop.auto=false}), where only the
 * beans with annotated methods are proxied and every other bean keeps the proxy it would have had.
 */
class LocksmithAopAutoConfigurationTests {

	@RegisterExtension
	static final RedisServerExtension redisServer = new RedisServerExtension();

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, DataRedisAutoConfiguration.class,
				DataSourceAutoConfiguration.class, DataSourceTransactionManagerAutoConfiguration.class,
				JdbcTemplateAutoConfiguration.class, LocksmithAutoConfiguration.class,
				LocksmithAopAutoConfiguration.class))
		.withPropertyValues("spring.data.redis.port=" + redisServer.server().port(),
				"spring.datasource.generate-unique-name=true")
		.withBean(Reports.class);

	@Test
	void withoutAutoProxyingAnnotatedMethodsLockAndOtherBeansKeepTheirInterfaceProxies() {
		this.runner.withPropertyValues("spring.aop.auto=false")
			.withUserConfiguration(InterfaceTransactions.class)
			.withBean(Ledger.class)
			.run((context) -> {
				Entries entries = context.getBean(Entries.class);
				assertThat(AopUtils.isJdkDynamicProxy(entries)).as("the @Transactional bean keeps its JDK proxy")
					.isTrue();
				assertThat(entries.inTransaction()).isTrue();
				locksWhileItRuns(context);
			});
	}

	@Test
	void withoutAnyAutoProxyCreatorAnnotatedMethodsLockAndNothingElseIsProxied() {
		this.runner.withPropertyValues("spring.aop.auto=false").withBean(Ledger.class).run((context) -> {
			assertThat(AopUtils.isAopProxy(context.getBean(Entries.class))).isFalse();
			assertThat(AopUtils.isCglibProxy(context.getBean(Reports.class))).as("proxied, subclassing its target")
				.isTrue();
			locksWhileItRuns(context);
		});
	}

	@Test
	void withSpringBootsAutoProxyingTheAdvisorIsAppliedOnce() {
		this.runner.run((context) -> {
			Reports reports = context.getBean(Reports.class);
			assertThat(((Advised) reports).getAdvisors())
				.filteredOn(DistributedLockAdvisor.class::isInstance)
				.hasSize(1);
			locksWhileItRuns(context);
		});
	}

	/** While the annotated method runs its lock is in Redis and a second owner is refused; then it is free. */
	private void locksWhileItRuns(AssertableApplicationContext context) throws Exception {
		LockService locks = context.getBean(LockService.class);
		LockOptions options = LockOptions.ofTtl(Duration.ofSeconds(30));
		String inside = context.getBean(Reports.class).build(() -> redisServer.server().command("EXISTS", "lock:{daily}")
				+ ", second owner refused: " + locks.tryAcquire("daily", options).isEmpty());
		assertThat(inside).isEqualTo("1, second owner refused: true");
		assertThat(redisServer.server().command("EXISTS", "lock:{daily}")).isEqualTo("0");
	}

	/** The application's own transaction management, with interface-based (JDK) proxies. */
	@Configuration(proxyBeanMethods = false)
	@EnableTransactionManagement
	static class InterfaceTransactions {

	}

	/** A bean used through its interface. */
	interface Entries {

		boolean inTransaction();

	}

	static class Ledger implements Entries {

		private final JdbcTemplate jdbc;

		Ledger(JdbcTemplate jdbc) {
			this.jdbc = jdbc;
		}

		@Override
		@Transactional
		public boolean inTransaction() {
			return this.jdbc.queryForObject("select 1", Integer.class) == 1
					&& TransactionSynchronizationManager.isActualTransactionActive();
		}

	}

	/** A bean with a locked method and no interface. */
	static class Reports {

		@DistributedLock(name = "daily")
		public String build(Callable<String> inside) throws Exception {
			return inside.call();
		}

	}

}
