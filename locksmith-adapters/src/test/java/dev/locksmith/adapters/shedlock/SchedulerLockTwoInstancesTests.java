package dev.locksmith.adapters.shedlock;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.LongStream;

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
 * their own, the second one's schedule a second late, as a clock skew of one second would make it: the
 * auto-configured provider lets each tick of the job run exactly once across both.
 */
class SchedulerLockTwoInstancesTests {

	@RegisterExtension
	static final RedisServerExtension redisServer = new RedisServerExtension();

	/** Seconds between ticks: a tick's number is its second of the epoch divided by this. */
	private static final int TICK_SECONDS = 2;

	private static final int TICKS = 5;

	private final RedisLockServices services = new RedisLockServices(redisServer.server());

	private final RunsPerTick runs = new RunsPerTick();

	@AfterEach
	void close() throws Exception {
		this.services.close();
	}

	@Test
	void eachTickRunsExactlyOnceAcrossTwoInstancesWithSkewedSchedules() {
		ApplicationContextRunner instance = new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(LocksmithShedLockAutoConfiguration.class))
			.withUserConfiguration(ScheduledJob.class)
			.withBean(RunsPerTick.class, () -> this.runs);
		instance.withBean(LockService.class, this.services::newService)
			.withPropertyValues("job.cron=0/2 * * * * *")
			.run((onTime) -> {
				assertThat(onTime).hasSingleBean(LocksmithLockProvider.class);
				instance.withBean(LockService.class, this.services::newService)
					.withPropertyValues("job.cron=1/2 * * * * *")
					.run((oneSecondLate) -> {
						assertThat(oneSecondLate).getBean(LockProvider.class).isInstanceOf(LocksmithLockProvider.class);
						long first = Instant.now().getEpochSecond() / TICK_SECONDS + 1;
						await().atMost(Duration.ofSeconds(TICK_SECONDS * (TICKS + 10)))
							.until(() -> this.runs.of(first + TICKS) > 0);
						assertThat(LongStream.range(first, first + TICKS).map(this.runs::of)).as("runs of each tick")
							.containsOnly(1L);
					});
			});
	}

	/** The job's runs, counted per tick. */
	static final class RunsPerTick {

		private final Map<Long, Integer> runs = new ConcurrentHashMap<>();

		void run() {
			this.runs.merge(Instant.now().getEpochSecond() / TICK_SECONDS, 1, Integer::sum);
		}

		long of(long tick) {
			return this.runs.getOrDefault(tick, 0);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableScheduling
	@EnableSchedulerLock(defaultLockAtMostFor = "PT30S")
	static class ScheduledJob {

		@Bean
		Job job(RunsPerTick runs) {
			return new Job(runs);
		}

	}

	static class Job {

		private final RunsPerTick runs;

		Job(RunsPerTick runs) {
			this.runs = runs;
		}

		/** A short job, kept taken for most of a tick so that the other instance's run of the tick skips. */
		@Scheduled(cron = "${job.cron}")
		@SchedulerLock(name = "tick-job", lockAtLeastFor = "PT1.7S")
		public void tick() {
			this.runs.run();
		}

	}

}
