package dev.locksmith.aop;

import java.time.Duration;
import java.util.List;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.locksmith.annotation.DistributedLock;
import dev.locksmith.annotation.OnBusy;
import dev.locksmith.core.LockBusyException;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockService;
import dev.locksmith.core.LockUnavailableException;
import dev.locksmith.testing.JulToSlf4jExtension;
import dev.locksmith.testing.RedisServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.InstanceOfAssertFactories.STRING;
import static org.awaitility.Awaitility.await;

/**
 * A store outage as annotated methods meet it: locking fails closed, fast once the client knows the
 * connection is down, and the log names each lock once per outage, with keys masked.
 */
@ExtendWith({ JulToSlf4jExtension.class, OutputCaptureExtension.class })
class LockStoreOutageTests {

	private RedisServer redis;

	private ApplicationContextRunner runner;

	@BeforeEach
	void startRedis() {
		this.redis = RedisServer.start();
		this.runner = AspectContexts.onRedis(this.redis)
			.withPropertyValues("locksmith.redis-timeout=2s")
			.withUserConfiguration(Jobs.class);
	}

	@AfterEach
	void stopRedis() {
		this.redis.close();
	}

	@Test
	void aKeylessLockIsNamedInErrorMessagesWhileKeysStayMasked() {
		this.runner.run((context) -> {
			Reports reports = context.getBean(Reports.class);
			context.getBean(LockService.class).acquire("stock-report", LockOptions.ofTtl(Duration.ofSeconds(30)));
			context.getBean(LockService.class).acquire("Reports.invoice:alice", LockOptions.ofTtl(Duration.ofSeconds(30)));

			assertThatExceptionOfType(LockBusyException.class).isThrownBy(reports::stockReport)
				.withMessageStartingWith("Lock 'stock-report' is held by another owner (waited ")
				.withMessageEndingWith("ms)");
			assertThatExceptionOfType(LockBusyException.class).isThrownBy(() -> reports.invoice("alice"))
				.withMessageStartingWith("Lock 'Reports.invoice:******' is held by another owner (waited ")
				.withMessageEndingWith("ms)");
		});
	}

	@Test
	void anOutageLogsOneWarnPerLockNameAndOneInfoWhenLockingIsBack(CapturedOutput output) {
		this.runner.run((context) -> {
			Reports reports = context.getBean(Reports.class);
			reports.stockReport();
			this.redis.stop();
			for (int tick = 0; tick < 3; tick++) {
				assertThatExceptionOfType(LockUnavailableException.class).isThrownBy(reports::stockReport)
					.withMessageStartingWith("Lock 'stock-report' is unavailable for Reports.stockReport()");
				assertThatExceptionOfType(LockUnavailableException.class).isThrownBy(() -> reports.invoice("alice"))
					.withMessageStartingWith("Lock 'Reports.invoice' is unavailable")
					.withMessageNotContaining("alice");
			}
			this.redis.restart();
			awaitLockingBack(reports);
			reports.invoice("alice");

			assertThat(linesWith(output, "Lock 'stock-report' is unavailable")).singleElement(STRING).contains(" WARN ");
			assertThat(linesWith(output, "Lock 'Reports.invoice' is unavailable")).singleElement(STRING)
				.contains(" WARN ");
			assertThat(linesWith(output, "Locking is back")).singleElement(STRING)
				.contains(" INFO ", "Reports.invoice, stock-report");
			assertThat(output.getOut()).doesNotContain("alice");
		});
	}

	@Test
	void aSkipJobThrowsLockUnavailableWhenRedisIsDownRatherThanSkipping() {
		this.runner.run((context) -> {
			Reports reports = context.getBean(Reports.class);
			assertThat(reports.nightlyExport()).isEqualTo("exported");
			this.redis.stop();
			assertThatExceptionOfType(LockUnavailableException.class).isThrownBy(reports::nightlyExport)
				.withMessageStartingWith("Lock 'nightly-export' is unavailable for Reports.nightlyExport()");
		});
	}

	@Test
	void aRefusedConnectionFailsWithoutWaitingForTheRedisTimeoutOnceTheClientKnowsItIsDown() {
		this.runner.run((context) -> {
			Reports reports = context.getBean(Reports.class);
			reports.stockReport();
			this.redis.stop();
			assertThatExceptionOfType(LockUnavailableException.class).as("the outage is noticed")
				.isThrownBy(reports::stockReport);
			for (int tick = 0; tick < 3; tick++) {
				long start = System.nanoTime();
				assertThatExceptionOfType(LockUnavailableException.class).isThrownBy(reports::stockReport)
					.withMessageContaining("connection lost");
				assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(500));
			}
		});
	}

	private static List<String> linesWith(CapturedOutput output, String text) {
		return output.getOut().lines().filter((line) -> line.contains(text)).toList();
	}

	private static void awaitLockingBack(Reports reports) {
		await().atMost(Duration.ofSeconds(10)).ignoreExceptions().until(() -> {
			reports.stockReport();
			return true;
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class Jobs {

		@Bean
		Reports reports() {
			return new Reports();
		}

	}

	/** Keyless scheduled-style jobs, one that throws and one that skips when busy, and a keyed one. */
	static class Reports {

		@DistributedLock(name = "stock-report", onBusy = OnBusy.THROW, waitTime = "0s")
		public void stockReport() {
		}

		@DistributedLock(key = "#customer", waitTime = "0s")
		public void invoice(String customer) {
		}

		@DistributedLock(name = "nightly-export", onBusy = OnBusy.SKIP)
		public @Nullable String nightlyExport() {
			return "exported";
		}

	}

}
