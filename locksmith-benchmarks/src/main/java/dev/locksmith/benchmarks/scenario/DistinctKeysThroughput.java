package dev.locksmith.benchmarks.scenario;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.stream.IntStream;

import dev.locksmith.benchmarks.BenchSettings;
import dev.locksmith.benchmarks.lock.BenchLock;
import dev.locksmith.benchmarks.lock.Library;

/**
 * Threads, each acquiring and releasing a key of its own, at each thread count of the settings;
 * total acquire and release pairs per second at each count.
 */
public final class DistinctKeysThroughput implements Scenario<Curve<Double>> {

	private final BenchSettings settings;

	public DistinctKeysThroughput(BenchSettings settings) {
		this.settings = settings;
	}

	@Override
	public String title() {
		return "Throughput against threads, each on its own key";
	}

	@Override
	public Optional<Curve<Double>> measure(Library library, BenchLock lock) throws Exception {
		SortedMap<Integer, Double> opsPerSecond = new TreeMap<>();
		for (int threads : this.settings.threads()) {
			opsPerSecond.put(threads, opsPerSecond(lock, threads));
		}
		return Optional.of(new Curve<>(opsPerSecond));
	}

	private double opsPerSecond(BenchLock lock, int threads) throws Exception {
		long measureStart = System.nanoTime() + this.settings.warmup().toNanos();
		long end = measureStart + this.settings.measure().toNanos();
		List<Callable<Long>> counters = IntStream.range(0, threads)
			.mapToObj((thread) -> (Callable<Long>) () -> count(lock, "bench:distinct:" + thread, measureStart, end))
			.toList();
		Duration expected = this.settings.warmup().plus(this.settings.measure());
		long total = Workers.runAll(counters, expected).stream().mapToLong(Long::longValue).sum();
		return total / (this.settings.measure().toNanos() / 1e9);
	}

	private static long count(BenchLock lock, String key, long measureStart, long end) throws Exception {
		long measured = 0;
		long now = System.nanoTime();
		while (now < end) {
			lock.runLocked(key, () -> {
			});
			if (now >= measureStart) {
				measured++;
			}
			now = System.nanoTime();
		}
		return measured;
	}

}
