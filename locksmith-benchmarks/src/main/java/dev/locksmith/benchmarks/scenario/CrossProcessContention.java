package dev.locksmith.benchmarks.scenario;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

import dev.locksmith.benchmarks.BenchSettings;
import dev.locksmith.benchmarks.lock.BenchLock;
import dev.locksmith.benchmarks.lock.Library;
import dev.locksmith.testing.RedisServer;

/**
 * Worker JVMs with several threads each contend for one key, at each JVM count of the settings; the
 * critical section is a read-modify-write of a counter in Redis. Measures throughput, lost updates,
 * fairness between threads and the longest wait. The JVMs are started once per library; a round
 * with fewer JVMs leaves the others idle.
 */
public final class CrossProcessContention implements Scenario<Curve<ContentionFigures>> {

	private static final Duration STARTUP_TIMEOUT = Duration.ofMinutes(3);

	private static final Duration REPORT_TIMEOUT = Duration.ofMinutes(1);

	private final BenchSettings settings;

	private final RedisServer redis;

	public CrossProcessContention(BenchSettings settings, RedisServer redis) {
		this.settings = settings;
		this.redis = redis;
	}

	@Override
	public String title() {
		return "Throughput against JVMs on one key, %d threads each, read-modify-write section"
			.formatted(this.settings.threadsPerJvm());
	}

	/** Measures {@code library} in worker JVMs of its own; the clients of this JVM take no part. */
	@Override
	public Optional<Curve<ContentionFigures>> measure(Library library, BenchLock lock) throws Exception {
		List<WorkerProcess> workers = new ArrayList<>();
		try {
			for (int i = 0; i < this.settings.mostJvms(); i++) {
				workers.add(WorkerProcess.start(i, library, this.redis.port(), this.settings.threadsPerJvm(),
						this.settings.warmup()));
			}
			for (WorkerProcess worker : workers) {
				worker.awaitLine(ContentionWorker.READY, STARTUP_TIMEOUT);
			}
			SortedMap<Integer, ContentionFigures> points = new TreeMap<>();
			for (int jvms : this.settings.jvms()) {
				points.put(jvms, round(workers.subList(0, jvms)));
			}
			return Optional.of(new Curve<>(points));
		}
		finally {
			for (WorkerProcess worker : workers) {
				worker.close();
			}
		}
	}

	private ContentionFigures round(List<WorkerProcess> workers) throws Exception {
		this.redis.command("SET", ContentionWorker.COUNTER, "0");
		sendAll(workers, ContentionWorker.GO);
		Thread.sleep(this.settings.warmup().toMillis());
		long start = System.nanoTime();
		sendAll(workers, ContentionWorker.MARK);
		Thread.sleep(this.settings.measure().toMillis());
		sendAll(workers, ContentionWorker.STOP);
		long elapsed = System.nanoTime() - start;
		List<ThreadTally> tallies = new ArrayList<>();
		for (WorkerProcess worker : workers) {
			tallies.addAll(worker.tallies(REPORT_TIMEOUT));
		}
		long counter = Long.parseLong(this.redis.command("GET", ContentionWorker.COUNTER));
		return figures(tallies, counter, elapsed);
	}

	private static void sendAll(List<WorkerProcess> workers, String command) throws Exception {
		for (WorkerProcess worker : workers) {
			worker.send(command);
		}
	}

	private static ContentionFigures figures(List<ThreadTally> tallies, long counter, long elapsedNanos) {
		long sections = tallies.stream().mapToLong(ThreadTally::sections).sum();
		long allSections = tallies.stream().mapToLong(ThreadTally::allSections).sum();
		long fewest = tallies.stream().mapToLong(ThreadTally::sections).min().orElse(0);
		long most = tallies.stream().mapToLong(ThreadTally::sections).max().orElse(0);
		long maxWait = tallies.stream().mapToLong(ThreadTally::maxWaitNanos).max().orElse(0);
		return new ContentionFigures(sections / (elapsedNanos / 1e9), allSections, allSections - counter,
				(most == 0) ? 0 : (double) fewest / most, maxWait / 1e6);
	}

}
