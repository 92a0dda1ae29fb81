package dev.locksmith.benchmarks.scenario;

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
 * with fewer JVMs leaves the others idle. Their clients connect to a port of their own, Redis's or a
 * proxy's in front of it, while this JVM sets and reads the counter on Redis itself.
 */
public final class CrossProcessContention implements Scenario<Curve<ContentionFigures>> {

	private final BenchSettings settings;

	private final RedisServer redis;

	private final int clientPort;

	/** Runs worker JVMs whose clients reach {@code redis} on {@code clientPort}. */
	public CrossProcessContention(BenchSettings settings, RedisServer redis, int clientPort) {
		this.settings = settings;
		this.redis = redis;
		this.clientPort = clientPort;
	}

	@Override
	public String title() {
		return "Throughput against JVMs on one key, %d threads each, read-modify-write section"
			.formatted(this.settings.threadsPerJvm());
	}

	/** Measures {@code library} in worker JVMs of its own; the clients of this JVM take no part. */
	@Override
	public Optional<Curve<ContentionFigures>> measure(Library library, BenchLock lock) throws Exception {
		int threads = this.settings.threadsPerJvm();
		try (WorkerGroup workers = WorkerGroup.start(this.settings.mostJvms(), ContentionWorker.class, library,
				this.clientPort, threads, this.settings)) {
			SortedMap<Integer, ContentionFigures> points = new TreeMap<>();
			for (int jvms : this.settings.jvms()) {
				this.redis.command("SET", ContentionWorker.COUNTER, "0");
				WorkerGroup.Round round = workers.round(jvms,
						(worker) -> WorkerRounds.go(ContentionWorker.WORKLOAD, threads));
				points.put(jvms, figures(round, Long.parseLong(this.redis.command("GET", ContentionWorker.COUNTER))));
			}
			return Optional.of(new Curve<>(points));
		}
	}

	private static ContentionFigures figures(WorkerGroup.Round round, long counter) {
		List<ThreadTally> tallies = round.tallies();
		long allSections = tallies.stream().mapToLong(ThreadTally::allSections).sum();
		long fewest = tallies.stream().mapToLong(ThreadTally::sections).min().orElse(0);
		long most = tallies.stream().mapToLong(ThreadTally::sections).max().orElse(0);
		return new ContentionFigures(round.sectionsPerSecond(), allSections, allSections - counter,
				(most == 0) ? 0 : (double) fewest / most, round.maxWaitMillis((tally) -> true));
	}

}
