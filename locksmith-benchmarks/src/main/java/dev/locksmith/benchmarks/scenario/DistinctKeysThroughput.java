package dev.locksmith.benchmarks.scenario;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.IntStream;

import dev.locksmith.benchmarks.BenchSettings;
import dev.locksmith.benchmarks.lock.BenchLock;
import dev.locksmith.benchmarks.lock.Library;

/** Scenario b: eight threads, each acquiring and releasing its own key; total throughput. */
public final class DistinctKeysThroughput implements Scenario<ThroughputFigures> {

	/** Threads, each with its own key. */
	public static final int THREADS = 8;

	private final BenchSettings settings;

	public DistinctKeysThroughput(BenchSettings settings) {
		this.settings = settings;
	}

	@Override
	public String title() {
		return THREADS + " threads on distinct keys";
	}

	@Override
	public Optional<ThroughputFigures> measure(Library library, BenchLock lock) throws Exception {
		long measureStart = System.nanoTime() + this.settings.warmup().toNanos();
		long end = measureStart + this.settings.measure().toNanos();
		List<Callable<Long>> threads = IntStream.range(0, THREADS)
			.mapToObj((thread) -> (Callable<Long>) () -> count(lock, "bench:distinct:" + thread, measureStart, end))
			.toList();
		Duration expected = this.settings.warmup().plus(this.settings.measure());
		long total = Workers.runAll(threads, expected).stream().mapToLong(Long::longValue).sum();
		return Optional.of(new ThroughputFigures(total / (this.settings.measure().toNanos() / 1e9)));
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
