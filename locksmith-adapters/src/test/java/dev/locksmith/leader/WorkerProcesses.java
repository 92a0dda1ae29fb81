package dev.locksmith.leader;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

import dev.locksmith.testing.WorkerJvm;

/** The {@link LeaderWorker} JVMs of a process test; a wait that times out shows what each one wrote. */
final class WorkerProcesses implements AutoCloseable {

	/** How long the JVMs may take to start and elect a first leader on a loaded machine. */
	static final Duration STARTUP = Duration.ofSeconds(40);

	private final List<WorkerJvm> workers;

	private WorkerProcesses(List<WorkerJvm> workers) {
		this.workers = workers;
	}

	/** Starts {@code count} workers in {@code mode} on the lock Redis and the checker Redis of these ports. */
	static WorkerProcesses start(int count, String mode, int lockPort, int checkerPort) {
		return new WorkerProcesses(IntStream.range(0, count)
			.mapToObj((i) -> WorkerJvm.start(LeaderWorker.class, Integer.toString(lockPort),
					Integer.toString(checkerPort), mode))
			.toList());
	}

	/** The worker of process {@code pid}. */
	WorkerJvm of(long pid) {
		return this.workers.stream().filter((worker) -> worker.pid() == pid).findFirst().orElseThrow();
	}

	/** Waits at most {@code atMost} for {@code condition}; on time-out fails with {@code what} and the workers' output. */
	void await(String what, Duration atMost, Callable<Boolean> condition) {
		try {
			Awaitility.await().alias(what).atMost(atMost).pollInterval(Duration.ofMillis(10)).until(condition);
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
	}

}
