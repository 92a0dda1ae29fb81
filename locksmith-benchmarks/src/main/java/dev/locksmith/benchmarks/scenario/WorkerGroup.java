package dev.locksmith.benchmarks.scenario;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import java.util.function.Predicate;

import dev.locksmith.benchmarks.BenchSettings;
import dev.locksmith.benchmarks.lock.Library;

/**
 * The worker JVMs of one library, started together from this JVM's classpath and driven round by
 * round: a round warms up for the warm-up of the settings and until the workers' JIT compilers are done
 * with its code, then measures for the measurement of the settings.
 */
final class WorkerGroup implements AutoCloseable {

	private static final Duration STARTUP_TIMEOUT = Duration.ofMinutes(3);

	private static final Duration REPORT_TIMEOUT = Duration.ofMinutes(1);

	private static final Duration SETTLE_WINDOW = Duration.ofSeconds(1);

	/** Compilation per worker and window under which its JIT counts as settled: 5 % of one core. */
	private static final Duration SETTLED_COMPILATION = Duration.ofMillis(50);

	private static final Duration MOST_SETTLING = Duration.ofSeconds(60);

	private final List<WorkerProcess> workers = new ArrayList<>();

	private final BenchSettings settings;

	private WorkerGroup(BenchSettings settings) {
		this.settings = settings;
	}

	/**
	 * Starts {@code size} JVMs running {@code mainClass} for {@code library}, each warmed up with
	 * {@code warmupThreads} threads, and waits until all are ready.
	 */
	static WorkerGroup start(int size, Class<?> mainClass, Library library, int redisPort, int warmupThreads,
			BenchSettings settings) throws Exception {
		WorkerGroup group = new WorkerGroup(settings);
		try {
			List<String> arguments = WorkerRounds.arguments(library, redisPort, warmupThreads, settings.warmup());
			for (int i = 0; i < size; i++) {
				group.workers.add(WorkerProcess.start(i, mainClass, arguments));
			}
			for (WorkerProcess worker : group.workers) {
				worker.awaitLine(WorkerRounds.READY, STARTUP_TIMEOUT);
			}
			return group;
		}
		catch (Exception ex) {
			group.close();
			throw ex;
		}
	}

	/**
	 * Runs one round on the first {@code jvms} workers, sending worker {@code i} the command
	 * {@code go.apply(i)} (see {@link WorkerRounds#go}), and collects their tallies.
	 */
	Round round(int jvms, IntFunction<String> go) throws Exception {
		List<WorkerProcess> round = this.workers.subList(0, jvms);
		for (int i = 0; i < jvms; i++) {
			round.get(i).send(go.apply(i));
		}
		long warmupStart = System.nanoTime();
		Thread.sleep(this.settings.warmup().toMillis());
		boolean settled = awaitSettledCompilers(round);
		long start = System.nanoTime();
		System.out.printf("   warm-up of %d workers: %.1f s, %s%n", jvms, (start - warmupStart) / 1e9,
				settled ? "their JIT compilers settled" : "their JIT compilers still busy");
		sendAll(round, WorkerRounds.MARK);
		Thread.sleep(this.settings.measure().toMillis());
		sendAll(round, WorkerRounds.STOP);
		long elapsed = System.nanoTime() - start;
		List<ThreadTally> tallies = new ArrayList<>();
		for (WorkerProcess worker : round) {
			tallies.addAll(worker.tallies(REPORT_TIMEOUT));
		}
		return new Round(tallies, elapsed);
	}

	/**
	 * Waits, after the warm-up, until the JIT compilers of every worker of the round have taken at most
	 * {@link #SETTLED_COMPILATION} over the last {@link #SETTLE_WINDOW}, or for {@link #MOST_SETTLING}.
	 * A library whose calls come less often compiles its code later, so a fixed warm-up alone measured
	 * a slow lock while its worker JVMs still compiled it on the same cores. Returns whether they settled.
	 */
	private static boolean awaitSettledCompilers(List<WorkerProcess> round) throws Exception {
		long end = System.nanoTime() + MOST_SETTLING.toNanos();
		long[] before = compilationMillis(round);
		while (System.nanoTime() < end) {
			Thread.sleep(SETTLE_WINDOW.toMillis());
			long[] after = compilationMillis(round);
			boolean settled = true;
			for (int i = 0; i < after.length; i++) {
				settled &= after[i] - before[i] <= SETTLED_COMPILATION.toMillis();
			}
			if (settled) {
				return true;
			}
			before = after;
		}
		return false;
	}

	private static long[] compilationMillis(List<WorkerProcess> round) throws Exception {
		long[] millis = new long[round.size()];
		for (int i = 0; i < millis.length; i++) {
			millis[i] = round.get(i).compilationMillis(REPORT_TIMEOUT);
		}
		return millis;
	}

	private static void sendAll(List<WorkerProcess> workers, String command) throws Exception {
		for (WorkerProcess worker : workers) {
			worker.send(command);
		}
	}

	@Override
	public void close() throws Exception {
		for (WorkerProcess worker : this.workers) {
			worker.close();
		}
	}

	/**
	 * What the threads of one round did.
	 *
	 * @param tallies one per thread and kind of section
	 * @param elapsedNanos how long the measured window lasted
	 */
	record Round(List<ThreadTally> tallies, long elapsedNanos) {

		/** Sections completed in the measured window per second, all threads together. */
		double sectionsPerSecond() {
			return this.tallies.stream().mapToLong(ThreadTally::sections).sum() / (this.elapsedNanos / 1e9);
		}

		/** The longest wait of the tallies that {@code which} picks, in milliseconds. */
		double maxWaitMillis(Predicate<ThreadTally> which) {
			return this.tallies.stream().filter(which).mapToLong(ThreadTally::maxWaitNanos).max().orElse(0) / 1e6;
		}

	}

}
