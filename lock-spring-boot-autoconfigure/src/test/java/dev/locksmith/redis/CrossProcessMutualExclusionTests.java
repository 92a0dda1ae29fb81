package dev.locksmith.redis;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import dev.locksmith.testing.RedisServer;
import dev.locksmith.testing.WorkerJvm;

import static org.assertj.core.api.Assertions.assertThat;

/** Separate JVM processes contend for one lock around a non-atomic read-modify-write in Redis. */
@Tag("slow")
class CrossProcessMutualExclusionTests {

	private static final int PROCESSES = 3;

	private static final int INCREMENTS_EACH = 1000;

	private RedisServer redis;

	@BeforeEach
	void startRedis() {
		this.redis = RedisServer.start();
	}

	@AfterEach
	void stopRedis() {
		this.redis.close();
	}

	@Test
	void processesContendingForOneLockLoseNoUpdateAndSeeIncreasingFencingTokens() throws Exception {
		List<Process> workers = new ArrayList<>();
		List<Path> logs = new ArrayList<>();
		for (int i = 0; i < PROCESSES; i++) {
			Path log = Files.createTempFile("counter-worker-", ".log");
			logs.add(log);
			workers.add(new ProcessBuilder(WorkerJvm.command(CounterWorker.class, Integer.toString(this.redis.port()),
					Integer.toString(INCREMENTS_EACH)))
				.redirectErrorStream(true)
				.redirectOutput(log.toFile())
				.start());
		}
		for (int i = 0; i < PROCESSES; i++) {
			Process worker = workers.get(i);
			assertThat(worker.waitFor(5, TimeUnit.MINUTES)).as("worker %d finished", i).isTrue();
			assertThat(worker.exitValue()).as("worker %d exit code; its output:%n%s", i, Files.readString(logs.get(i)))
				.isZero();
		}

		assertThat(this.redis.command("GET", CounterWorker.COUNTER)).isEqualTo(Integer.toString(PROCESSES * INCREMENTS_EACH));
		long[] fencingTokens = Arrays.stream(this.redis.command("LRANGE", CounterWorker.FENCING_LOG, "0", "-1").split("\n"))
			.mapToLong(Long::parseLong)
			.toArray();
		assertThat(fencingTokens).hasSize(PROCESSES * INCREMENTS_EACH).isSorted().doesNotHaveDuplicates();
	}

}
