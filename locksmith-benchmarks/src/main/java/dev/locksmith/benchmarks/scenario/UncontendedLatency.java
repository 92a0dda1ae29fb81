package dev.locksmith.benchmarks.scenario;

import java.time.Duration;
import java.util.Optional;

import org.HdrHistogram.Histogram;

import dev.locksmith.benchmarks.BenchSettings;
import dev.locksmith.benchmarks.lock.BenchLock;
import dev.locksmith.benchmarks.lock.Library;

/** One thread acquires and releases one free key over and over; latency percentiles. */
public final class UncontendedLatency implements Scenario<LatencyFigures> {

	/** The key that is taken over and over. */
	static final String KEY = "bench:uncontended";

	private final BenchSettings settings;

	public UncontendedLatency(BenchSettings settings) {
		this.settings = settings;
	}

	@Override
	public String title() {
		return "Uncontended acquire + release, 1 thread";
	}

	@Override
	public Optional<LatencyFigures> measure(Library library, BenchLock lock) throws Exception {
		Duration expected = this.settings.warmup().plus(this.settings.measure());
		return Optional.of(Workers.runOne(() -> sample(lock), expected));
	}

	private LatencyFigures sample(BenchLock lock) throws Exception {
		long measureStart = System.nanoTime() + this.settings.warmup().toNanos();
		long end = measureStart + this.settings.measure().toNanos();
		Histogram nanos = new Histogram(3);
		long now = System.nanoTime();
		while (now < end) {
			lock.runLocked(KEY, () -> {
			});
			long finished = System.nanoTime();
			if (now >= measureStart) {
				nanos.recordValue(finished - now);
			}
			now = finished;
		}
		return new LatencyFigures(
				LatencyFigures.PERCENTILES.stream().map((p) -> nanos.getValueAtPercentile(p) / 1000.0).toList(),
				nanos.getMaxValue() / 1000.0, nanos.getTotalCount());
	}

}
