package dev.locksmith.redis;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import dev.locksmith.testing.RedisServer;
import dev.locksmith.testing.WorkerJvm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The README's scheduled job on two instances, each a separate JVM with
 * {@code locksmith.default-wait-time} set, the second one's schedule a second late, as a clock
 * skew of one second would make it. Each tick is a trial of its own: a second run shows within a few;
 * {@code -Dlocksmith.stress.scale=N} counts N times as many.
 */
@Tag("slow")
class ScheduledJobProcessTests {

	private static final int TICKS = 8 * Math.max(1, Integer.getInteger("locksmith.stress.scale", 1));

	private final List<Process> workers = new ArrayList<>();

	private final List<Path> logs = new ArrayList<>();

	private RedisServer redis;

	@BeforeEach
	void startRedis() {
		this.redis = RedisServer.start();
	}

	@AfterEach
	void stopAll() {
		this.workers.forEach(Process::destroyForcibly);
		this.redis.close();
	}

	@Test
	void eachTickOfAShortJobRunsExactlyOnceOnTwoInstancesWithSkewedSchedules() throws Exception {
		String holdAtLeast = "1700ms";
		startWorker("on-time", "0/2 * * * * *", holdAtLeast);
		startWorker("one-second-late", "1/2 * * * * *", holdAtLeast);
		await().atMost(Duration.ofMinutes(3)).until(() -> this.redis.command("LLEN", ScheduledJobWorker.READY).equals("2"));
		// counting starts one tick late: the job's first run on each instance still pays for its cold path
		long first = Instant.now().getEpochSecond() / ScheduledJobWorker.TICK_SECONDS + 2;

		await().atMost(Duration.ofMinutes(2)).until(() -> !runsOf(first + TICKS).isEmpty());

		for (int i = 0; i < this.workers.size(); i++) {
			assertThat(this.workers.get(i).isAlive()).as("worker %d alive; its output:%n%s", i,
					Files.readString(this.logs.get(i))).isTrue();
		}
		assertThat(LongStream.range(first, first + TICKS).mapToObj(this::runsOf)).as("runs of each tick")
			.containsOnly("1")
			.hasSize(TICKS);
	}

	private void startWorker(String name, String cron, String holdAtLeast) throws Exception {
		Path log = Files.createTempFile("scheduled-job-worker-", ".log");
		this.logs.add(log);
		this.workers.add(new ProcessBuilder(WorkerJvm.command(ScheduledJobWorker.class, Integer.toString(this.redis.port()),
				name, cron, holdAtLeast))
			.redirectErrorStream(true)
			.redirectOutput(log.toFile())
			.start());
	}

	private String runsOf(long tick) {
		return this.redis.command("HGET", ScheduledJobWorker.RUNS_PER_TICK, Long.toString(tick));
	}

}
