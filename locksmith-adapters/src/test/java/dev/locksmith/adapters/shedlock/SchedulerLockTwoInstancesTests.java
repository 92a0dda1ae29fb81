package dev.locksmith.adapters.shedlock;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.spring.annotation.EnableSchedulerLock;
import net.javacrumbs.shedlock.spring.annotation.SchedulerLock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

import dev.locksmith.adapters.RedisLockServices;
import dev.locksmith.adapters.autoconfigure.LocksmithShedLockAutoConfiguration;
import dev.locksmith.core.LockService;
import dev.locksmith.testing.RedisServerExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two application instances with the same {@code @Scheduled @SchedulerLock} job and no lock provider of
 * their own: the auto-configured provider lets one instance at a time run it.
 */
class SchedulerLockTwoInstancesTests {

	@RegisterExtension
	static final RedisServerExtension redisServer = new RedisServerExtension();

	private final RedisLockServices services = new RedisLockServices(redisServer.server());

	private final Runs runs = new Runs();

	@AfterEach
	void close() throws Exception {
		this.services.close();
	}

	@Test
	void theJobRunsOnOneInstanceAtATime() {
		ApplicationContextRunner instance = new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(LocksmithShedLockAutoConfiguration.class))
			.withUserConfiguration(ScheduledJob.class)
			.withBean(Runs.class, () -> this.runs);
		instance.withBean(LockService.class, this.services::newService).run((first) -> {
			assertThat(first).hasSingleBean(LocksmithLockProvider.class);
			instance.withBean(LockService.class, this.services::newService).run((second) -> {
				assertThat(second).getBean(LockProvider.class).isInstanceOf(LocksmithLockProvider.class);
				await().atMost(Duration.ofSeconds(20)).until(() -> this.runs.completed.get() >= 5);
			});
		});

		assertThat(this.runs.overlaps).hasValue(0);
	}

	/** Counts the job's runs, and the runs that started while another was running. */
	static final class Runs {

		final AtomicInteger running = new AtomicInteger();

		final AtomicInteger overlaps = new AtomicInteger();

		final AtomicInteger completed = new AtomicInteger();

		void run() {
			if (this.running.incrementAndGet() != 1) {
				this.overlaps.incrementAndGet();
			}
			// the job's own work, long enough for the other instance's schedule to fire meanwhile
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(30));
			this.running.decrementAndGet();
			this.completed.incrementAndGet();
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableScheduling
	@EnableSchedulerLock(defaultLockAtMostFor = "PT30S")
	static class ScheduledJob {

		@Bean
		Job job(Runs runs) {
			return new Job(runs);
		}

	}

	static class Job {

		private final Runs runs;

		Job(Runs runs) {
			this.runs = runs;
		}

		@Scheduled(fixedDelay = 10)
		@SchedulerLock(name = "nightly-report", lockAtLeastFor = "PT0.1S")
		public void report() {
			this.runs.run();
		}

	}

}
