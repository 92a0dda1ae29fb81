package dev.locksmith.redis;

import java.time.Instant;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

import dev.locksmith.annotation.DistributedLock;
import dev.locksmith.annotation.OnBusy;
import dev.locksmith.core.LockService;

/**
 * A separate JVM for {@link ScheduledJobProcessTests}: a Spring Boot application with the README's
 * scheduled job, which counts its runs per tick in Redis. Arguments: Redis port, instance name, cron
 * expression, and the job's minimum hold.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@EnableScheduling
public class ScheduledJobWorker {

	static final String READY = "test:ready";

	static final String RUNS_PER_TICK = "test:runs-per-tick";

	/** Seconds between ticks: a tick's number is its second of the epoch divided by this. */
	static final int TICK_SECONDS = 2;

	public static void main(String[] args) {
		new SpringApplicationBuilder(ScheduledJobWorker.class).web(WebApplicationType.NONE)
			.properties("spring.data.redis.port=" + args[0], "worker.name=" + args[1], "worker.cron=" + args[2],
					"worker.hold-at-least=" + args[3], "locksmith.default-wait-time=10s")
			.run(args);
	}

	@Bean
	TickJob tickJob(StringRedisTemplate redis) {
		return new TickJob(redis);
	}

	/**
	 * Takes and releases a lock of another name before announcing the instance ready, so that the
	 * first tick does not pay for a cold connection and script cache and run past its own tick.
	 */
	@Bean
	ApplicationRunner announceReady(StringRedisTemplate redis, LockService locks, @Value("${worker.name}") String name) {
		return (arguments) -> {
			locks.runLocked("warm-up-" + name, locks.options(), () -> redis.hasKey(RUNS_PER_TICK));
			redis.opsForList().rightPush(READY, name);
		};
	}

	/** The README's job: one that ends within milliseconds, and skips when another instance runs it. */
	public static class TickJob {

		private final StringRedisTemplate redis;

		TickJob(StringRedisTemplate redis) {
			this.redis = redis;
		}

		@Scheduled(cron = "${worker.cron}")
		@DistributedLock(name = "tick-job", onBusy = OnBusy.SKIP, holdAtLeast = "${worker.hold-at-least}")
		public void run() {
			long tick = Instant.now().getEpochSecond() / TICK_SECONDS;
			this.redis.opsForHash().increment(RUNS_PER_TICK, Long.toString(tick), 1);
		}

	}

}
