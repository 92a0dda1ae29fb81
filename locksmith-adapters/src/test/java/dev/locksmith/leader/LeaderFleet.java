package dev.locksmith.leader;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

import dev.locksmith.testing.RedisServer;
import dev.locksmith.testing.WorkerJvm;

/**
 * What a leadership process test runs on: a Redis for the locks, a Redis for the checker, the checker,
 * and the {@link LeaderWorker} JVMs. A wait that times out shows what each JVM wrote.
 */
final class LeaderFleet implements AutoCloseable {

	/**
	 * How long the JVMs may take to start and elect a first leader on a loaded machine: on 2 cores under a
	 * load average of 30, one took longer than 90 s to start Spring Boot.
	 */
	static final Duration STARTUP = Duration.ofMinutes(3);

	private final RedisServer lockServer = RedisServer.start();

	private final RedisServer checkerServer = RedisServer.start();

	private final LeadershipChecker checker = new LeadershipChecker(this.checkerServer.port());

	private final List<WorkerJvm> workers;

	private LeaderFleet(int count, String mode) {
		this.workers = IntStream.range(0, count)
			.mapToObj((i) -> WorkerJvm.start(LeaderWorker.class, Integer.toString(this.lockServer.port()),
					Integer.toString(this.checkerServer.port()), mode))
			.toList();
	}

	/** Starts the servers, the checker and {@code count} workers in {@code mode} (see {@link LeaderWorker}). */
	static LeaderFleet start(int count, String mode) {
		return new LeaderFleet(count, mode);
	}

	LeadershipChecker checker() {
		return this.checker;
	}

	/** The worker of process {@code pid}. */
	WorkerJvm of(long pid) {
		return this.workers.stream().filter((worker) -> worker.pid() == pid).findFirst().orElseThrow();
	}

	/** Waits at most {@code atMost} for {@code condition}; on time-out fails with {@code what} and the workers' output. */
	void await(String what, Duration atMost, Callable<Boolean> condition) {
		await(what, atMost, Duration.ZERO, condition);
	}

	/**
	 * Waits at most {@code atMost} for {@code condition} to hold without a break for {@code during}; on
	 * time-out fails with {@code what} and the workers' output.
	 */
	void await(String what, Duration atMost, Duration during, Callable<Boolean> condition) {
		try {
			Awaitility.await()
				.alias(what)
				.atMost(atMost.plus(during))
				.during(during)
				.pollInterval(Duration.ofMillis(10))
				.until(condition);
		}
		catch (ConditionTimeoutException ex) {
			throw new AssertionError("Not within " + atMost + ": " + what + ". The workers wrote:\n"
					+ this.workers.stream()
						.map((worker) -> "--- worker " + worker.pid() + (worker.isAlive() ? "" : " (exited)") + "\n"
								+ worker.output())
						.collect(Collectors.joining("\n")),
					ex);
		}
	}

	@Override
	public void close() {
		this.workers.forEach(WorkerJvm::close);
		this.checker.close();
		this.checkerServer.close();
		this.lockServer.close();
	}

}
