package dev.locksmith.autoconfigure.scheduling;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.autoconfigure.task.TaskSchedulingAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.logging.LogLevel;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.boot.task.SimpleAsyncTaskSchedulerBuilder;
import org.springframework.boot.task.ThreadPoolTaskSchedulerCustomizer;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.scheduling.concurrent.SimpleAsyncTaskScheduler;

import dev.locksmith.annotation.DistributedLock;
import dev.locksmith.annotation.OnBusy;
import dev.locksmith.autoconfigure.LocksmithAopAutoConfiguration;
import dev.locksmith.autoconfigure.LocksmithAutoConfiguration;
import dev.locksmith.core.LockUnavailableException;
import dev.locksmith.redis.TestLockKeys;
import dev.locksmith.testing.JulToSlf4jExtension;
import dev.locksmith.testing.RedisServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.InstanceOfAssertFactories.STRING;
import static org.awaitility.Awaitility.await;

/**
 * A scheduled job on a lock store outage, as Spring Boot's task scheduler logs it: Locksmith's one WARN
 * per lock and outage, a DEBUG line per failed tick, and ERROR only for errors that are not lock failures.
 */
@ExtendWith({ JulToSlf4jExtension.class, OutputCaptureExtension.class })
class LocksmithSchedulingAutoConfigurationTests {

	private static final String NOT_RUN = "Scheduled task did not run";

	private static final String SPRING_ERROR = "Unexpected error occurred in scheduled task";

	private RedisServer redis;

	private final LoggingSystem logging = LoggingSystem.get(getClass().getClassLoader());

	@BeforeEach
	void startRedis() {
		this.redis = RedisServer.start();
		this.logging.setLogLevel(LockFailureErrorHandler.class.getName(), LogLevel.DEBUG);
	}

	@AfterEach
	void stopRedis() {
		this.logging.setLogLevel(LockFailureErrorHandler.class.getName(), null);
		this.redis.close();
	}

	@Test
	void aScheduledJobOnAnOutageLogsOneWarnAndNoErrorTickAfterTick(CapturedOutput output) {
		runner().withUserConfiguration(StockReportJob.class).run((context) -> {
			StockReport job = context.getBean(StockReport.class);
			awaitFirstRunAndStopRedis(job);
			await().atMost(Duration.ofSeconds(30)).until(() -> linesWith(output, NOT_RUN).size() >= 3);

			assertThat(linesWith(output, NOT_RUN)).allSatisfy((line) -> assertThat(line).contains(" DEBUG ", "stock-report"));
			// Locksmith's lines, whatever the width Logback abbreviates their logger names to
			assertThat(linesWith(output, " WARN ")).filteredOn((line) -> line.contains("stock-report"))
				.singleElement(STRING)
				.contains("Lock 'stock-report' is unavailable");
			assertThat(linesWith(output, " ERROR ")).isEmpty();
			assertThat(output.getAll()).doesNotContain(SPRING_ERROR);
		});
	}

	@Test
	void anErrorThatIsNotALockFailureIsStillLoggedAsAnErrorWithItsStackTrace(CapturedOutput output) {
		runner().withUserConfiguration(FailingJob.class).run((context) -> {
			await().atMost(Duration.ofSeconds(20)).until(() -> output.getAll().contains(SPRING_ERROR));
			assertThat(linesWith(output, SPRING_ERROR)).first(STRING).contains(" ERROR ");
			assertThat(output.getAll()).contains("java.lang.IllegalStateException: not a lock failure",
					"at " + FailingJob.class.getName());
		});
	}

	@Test
	void anErrorHandlerThatTheApplicationSetsInItsOwnCustomizerIsKept(CapturedOutput output) {
		runner().withUserConfiguration(StockReportJob.class, OwnErrorHandler.class).run((context) -> {
			StockReport job = context.getBean(StockReport.class);
			List<Throwable> handled = context.getBean(OwnErrorHandler.class).handled;
			awaitFirstRunAndStopRedis(job);
			await().atMost(Duration.ofSeconds(30))
				.until(() -> handled.stream().anyMatch(LockUnavailableException.class::isInstance));
			assertThat(output.getAll()).doesNotContain(NOT_RUN);
			assertThat(context).doesNotHaveBean("locksmithThreadPoolTaskSchedulerCustomizer");
		});
	}

	@Test
	void theSchedulerThatBootBuildsForVirtualThreadsLogsLockFailuresAtDebugToo(CapturedOutput output) {
		runner().run((context) -> {
			try (SimpleAsyncTaskScheduler scheduler = context.getBean(SimpleAsyncTaskSchedulerBuilder.class).build()) {
				scheduler.start();
				scheduler.scheduleWithFixedDelay(() -> {
					throw new LockUnavailableException("Lock 'export' is unavailable", null);
				}, Duration.ofMillis(50));
				await().atMost(Duration.ofSeconds(20)).until(() -> linesWith(output, NOT_RUN).size() >= 2);
			}
			assertThat(linesWith(output, NOT_RUN)).allSatisfy((line) -> assertThat(line).contains(" DEBUG ", "export"));
			assertThat(output.getAll()).doesNotContain(SPRING_ERROR);
		});
	}

	@Test
	void theSchedulerIsLeftAloneWhenLocksmithIsOff() {
		runner().withPropertyValues("locksmith.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(LocksmithSchedulingAutoConfiguration.class));
	}

	/**
	 * Stops Redis once the job ran and the subscriber connection is open, so that the outage meets
	 * neither the job's first lock nor the subscriber's first subscription.
	 */
	private void awaitFirstRunAndStopRedis(StockReport job) {
		await().atMost(Duration.ofSeconds(20))
			.until(() -> job.runs() > 0 && this.redis.subscribers(TestLockKeys.releaseChannel("")) > 0);
		this.redis.stop();
	}

	private ApplicationContextRunner runner() {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, DataRedisAutoConfiguration.class,
					LocksmithAutoConfiguration.class, LocksmithAopAutoConfiguration.class,
					TaskSchedulingAutoConfiguration.class, LocksmithSchedulingAutoConfiguration.class))
			.withPropertyValues("spring.data.redis.port=" + this.redis.port());
	}

	private static List<String> linesWith(CapturedOutput output, String text) {
		return output.getAll().lines().filter((line) -> line.contains(text)).toList();
	}

	@Configuration(proxyBeanMethods = false)
	@EnableScheduling
	static class StockReportJob {

		@Bean
		StockReport stockReport() {
			return new StockReport();
		}

	}

	/** A keyless job that skips when another instance runs it, as the README's scheduled job. */
	static class StockReport {

		private final AtomicInteger runs = new AtomicInteger();

		@Scheduled(fixedDelay = 100)
		@DistributedLock(name = "stock-report", onBusy = OnBusy.SKIP)
		public void run() {
			this.runs.incrementAndGet();
		}

		public int runs() {
			return this.runs.get();
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableScheduling
	static class FailingJob {

		@Scheduled(fixedDelay = 60_000)
		void run() {
			throw new IllegalStateException("not a lock failure");
		}

	}

	/** The application's own error handler, set on Boot's scheduler by its own customizer, which Boot applies in no set order. */
	@Configuration(proxyBeanMethods = false)
	static class OwnErrorHandler {

		final List<Throwable> handled = new CopyOnWriteArrayList<>();

		@Bean
		ThreadPoolTaskSchedulerCustomizer ownErrorHandlerCustomizer() {
			return (scheduler) -> scheduler.setErrorHandler(this.handled::add);
		}

	}

}
