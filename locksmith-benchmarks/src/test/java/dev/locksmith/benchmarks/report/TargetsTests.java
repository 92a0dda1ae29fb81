package dev.locksmith.benchmarks.report;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

import dev.locksmith.benchmarks.lock.Library;
import dev.locksmith.benchmarks.scenario.ContentionFigures;
import dev.locksmith.benchmarks.scenario.Curve;
import dev.locksmith.benchmarks.scenario.LatencyFigures;
import dev.locksmith.benchmarks.scenario.RedisCostFigures;
import dev.locksmith.benchmarks.scenario.Results;

import static org.assertj.core.api.Assertions.assertThat;

class TargetsTests {

	@Test
	void eachTargetIsMetOrNotFromTheFiguresOfOneRun() {
		BenchmarkResults results = new BenchmarkResults(
				Results.of(Map.of(Library.TEXTBOOK, latency(200), Library.LOCKSMITH_ANNOTATED, latency(230))),
				Results.of(Map.of(Library.TEXTBOOK, cost(5), Library.LOCKSMITH, cost(9), Library.LOCKSMITH_ANNOTATED,
						cost(11))),
				Results.of(Map.of(Library.TEXTBOOK, throughput(10_000), Library.REDISSON, throughput(4_000),
						Library.SHEDLOCK, throughput(4_500), Library.LOCKSMITH, throughput(9_500))),
				Results.of(Map.of(Library.TEXTBOOK, contention(1_000, 0.8, 70), Library.LOCKSMITH,
						contention(1_600, 0.95, 30))),
				Results.of(Map.of()), Results.of(Map.of()), Results.of(Map.of()));
		assertThat(Targets.evaluate(results, 2)).extracting(Verdict::line)
			.containsExactly(
					"met      Locksmith LockService, 3 JVMs x 2 threads on one key: sections/s >= 1.0x textbook: 1.60×",
					"met      Locksmith LockService, 3 JVMs x 2 threads on one key: sections/s >= 1.5x textbook (stretch): 1.60×",
					"met      Locksmith LockService, 3 JVMs x 2 threads on one key: per-thread min/max >= 0.9: 0.95",
					"met      Locksmith LockService, 3 JVMs x 2 threads on one key: max wait <= 50 ms: 30.0 ms",
					"met      Locksmith LockService, 3 JVMs x 2 threads on one key: lost updates = 0: 0",
					"NOT MET  Locksmith @DistributedLock, 3 JVMs x 2 threads on one key: sections/s >= 1.0x textbook: no figure",
					"NOT MET  Locksmith @DistributedLock, 3 JVMs x 2 threads on one key: sections/s >= 1.5x textbook (stretch): no figure",
					"NOT MET  Locksmith @DistributedLock, 3 JVMs x 2 threads on one key: per-thread min/max >= 0.9: no figure",
					"NOT MET  Locksmith @DistributedLock, 3 JVMs x 2 threads on one key: max wait <= 50 ms: no figure",
					"NOT MET  Locksmith @DistributedLock, 3 JVMs x 2 threads on one key: lost updates = 0: no figure",
					"met      Locksmith LockService, 8 threads on distinct keys: >= 0.9x textbook: 0.95×",
					"met      Locksmith LockService, 8 threads on distinct keys: >= 2x the best peer: 2.11×",
					"NOT MET  Locksmith @DistributedLock, 8 threads on distinct keys: >= 0.9x textbook: no figure",
					"NOT MET  Locksmith @DistributedLock, 8 threads on distinct keys: >= 2x the best peer: no figure",
					"NOT MET  Locksmith @DistributedLock, uncontended p50: <= 1.10x textbook: 1.15×",
					"met      Locksmith LockService, Redis CPU per uncontended pair (commandstats): <= 2x textbook: 1.80×",
					"NOT MET  Locksmith @DistributedLock, Redis CPU per uncontended pair (commandstats): <= 2x textbook: 2.20×");
	}

	@Test
	void theOneKeyTargetNeedsTwoThreadsPerJvm() {
		BenchmarkResults results = new BenchmarkResults(Results.of(Map.of()), Results.of(Map.of()),
				Results.of(Map.of()),
				Results.of(Map.of(Library.TEXTBOOK, contention(1_000, 0.8, 70), Library.LOCKSMITH,
						contention(1_600, 0.95, 30))),
				Results.of(Map.of()), Results.of(Map.of()), Results.of(Map.of()));
		assertThat(Targets.evaluate(results, 4).get(0).measured()).isEqualTo("no figure");
	}

	private static LatencyFigures latency(double p50) {
		return new LatencyFigures(List.of(p50, p50, p50, p50, p50), p50, 1000);
	}

	private static RedisCostFigures cost(double microsPerPair) {
		return new RedisCostFigures(1000, new TreeMap<>(), microsPerPair, 0);
	}

	private static Curve<Double> throughput(double atEightThreads) {
		return new Curve<>(new TreeMap<>(Map.of(1, atEightThreads / 4, 8, atEightThreads)));
	}

	private static Curve<ContentionFigures> contention(double atThreeJvms, double fairness, double maxWait) {
		return new Curve<>(new TreeMap<>(Map.of(3, new ContentionFigures(atThreeJvms, 1000, 0, fairness, maxWait))));
	}

}
