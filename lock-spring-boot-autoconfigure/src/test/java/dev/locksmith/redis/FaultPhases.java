package dev.locksmith.redis;

import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.locksmith.redis.ReliabilityReport.Outcome;
import dev.locksmith.testing.WorkerJvm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The phases of a fault suite whose worker JVMs do fenced writes that {@code checker} counts: one fault after
 * the other, each measured from its injection to the next accepted write and 20 writes after it, then the
 * checks that no update was lost and that overlaps came only where the lock model allows them.
 */
final class FaultPhases {

	/** Accepted writes that a phase lets the workload make before and after its fault. */
	static final int STEADY_WRITES = 20;

	private final Checker checker;

	FaultPhases(Checker checker) {
		this.checker = checker;
	}

	/** Starts {@code count} worker JVMs that run {@code mainClass} with {@code arguments}, each logging to a file. */
	static List<Process> startWorkers(int count, Class<?> mainClass, String... arguments) throws IOException {
		List<Process> workers = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			workers.add(new ProcessBuilder(WorkerJvm.command(mainClass, arguments)).redirectErrorStream(true)
				.redirectOutput(Files.createTempFile(mainClass.getSimpleName() + "-", ".log").toFile())
				.start());
		}
		return workers;
	}

	/** Runs {@code faults} in turn once the workers wrote, then stops {@code workers} and checks the whole run. */
	List<Outcome> run(List<Fault> faults, List<Process> workers) throws Exception {
		// the worker JVMs start first, slowly on a busy machine
		await().atMost(Duration.ofMinutes(3)).until(() -> accepted() >= STEADY_WRITES);
		List<Outcome> outcomes = new ArrayList<>();
		for (Fault fault : faults) {
			outcomes.add(run(fault));
		}
		this.checker.stopWorkers();
		for (Process worker : workers) {
			assertThat(worker.waitFor(1, TimeUnit.MINUTES)).isTrue();
			assertThat(worker.exitValue()).isZero();
		}
		return outcomes;
	}

	/** Checks that the run lost no update and overlapped only where the model allows; returns its totals. */
	Map<String, Long> check(List<Outcome> outcomes) {
		Map<String, Long> end = this.checker.snapshot();
		assertThat(end.getOrDefault("unexpected", 0L)).as("failures other than busy or unavailable").isZero();
		assertThat(end.get("sum")).as("the counters add up to the accepted writes: no lost update")
			.isEqualTo(end.get("accepted"));
		for (Outcome outcome : outcomes) {
			assertThat(outcome.lostUpdates()).as("lost updates during '%s'", outcome.fault()).isZero();
			if (!outcome.overlapsAllowed()) {
				assertThat(outcome.overlaps()).as("overlaps during '%s'", outcome.fault()).isZero();
			}
		}
		return end;
	}

	/** Waits until the workload made {@link #STEADY_WRITES} more accepted writes. */
	void awaitSteadyWrites() {
		long start = accepted();
		await().atMost(Duration.ofMinutes(1)).until(() -> accepted() >= start + STEADY_WRITES);
	}

	/** The lock calls of the workers that failed closed so far. */
	long failedClosed() {
		return this.checker.snapshot().getOrDefault("unavailable", 0L);
	}

	/** Injects the fault, measures the time to the next accepted write, then lets the workload run on. */
	private Outcome run(Fault fault) throws Exception {
		Map<String, Long> before = this.checker.snapshot();
		fault.inject().run();
		long injected = System.nanoTime();
		long acceptedThen = accepted();
		await().atMost(Duration.ofMinutes(1))
			.pollInterval(Duration.ofMillis(5))
			.alias("an accepted write after '" + fault.name() + "'")
			.until(() -> accepted() > acceptedThen);
		Duration recovery = Duration.ofNanos(System.nanoTime() - injected);
		awaitSteadyWrites();
		return Outcome.between(fault.name(), fault.overlapsAllowed(), before, this.checker.snapshot(), recovery);
	}

	private long accepted() {
		return this.checker.snapshot().getOrDefault("accepted", 0L);
	}

	/** A fault, and whether the lock model allows two holders at once while it lasts. */
	record Fault(String name, boolean overlapsAllowed, Injection inject) {
	}

	/** What injects a fault, and heals it where it does not last. */
	@FunctionalInterface
	interface Injection {

		void run() throws Exception;

	}

}
