package dev.locksmith.jedis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.locksmith.testing.RedisServerExtension;
import dev.locksmith.testing.WorkerJvm;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Worker JVMs on Jedis take turns at one lock. Their waiters ask Redis again only every 30s, so the
 * increments finish in time only when each release notification wakes the next waiter.
 */
class CrossProcessWaitingTests {

	@RegisterExtension
	static final RedisServerExtension redisServer = new RedisServerExtension();

	private static final int WORKERS = 3;

	/** Increments per worker; scale with {@code -Djedis.increments=400}. */
	private static final int INCREMENTS = Integer.getInteger("jedis.increments", 100);

	/** Generous for a loaded machine: woken by notifications, the workers need seconds after their startup. */
	private static final Duration BOUND = Duration.ofSeconds(120);

	private final List<WorkerJvm> workers = new ArrayList<>();

	@AfterEach
	void stopWorkers() {
		this.workers.forEach(WorkerJvm::close);
	}

	@Test
	void waitersInOtherProcessesAreWokenByReleaseNotifications() throws Exception {
		String port = Integer.toString(redisServer.server().port());
		for (int i = 0; i < WORKERS; i++) {
			this.workers.add(WorkerJvm.start(CounterWorker.class, port, Integer.toString(INCREMENTS)));
		}
		long deadline = System.nanoTime() + BOUND.toNanos();
		for (WorkerJvm worker : this.workers) {
			Duration left = Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
			assertThat(worker.awaitExit(left)).as("worker %d finished within %s; counter at %s; its output:%n%s",
					worker.pid(), BOUND, redisServer.server().command("GET", CounterWorker.COUNTER), worker.output())
				.isTrue();
			assertThat(worker.exitValue()).as("worker %d exit code; its output:%n%s", worker.pid(), worker.output())
				.isZero();
		}
		assertThat(redisServer.server().command("GET", CounterWorker.COUNTER))
			.isEqualTo(Integer.toString(WORKERS * INCREMENTS));
	}

}
