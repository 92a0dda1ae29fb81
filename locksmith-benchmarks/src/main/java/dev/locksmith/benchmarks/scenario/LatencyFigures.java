package dev.locksmith.benchmarks.scenario;

import java.util.List;

/**
 * Latency of an uncontended acquire and release, at each of {@link #PERCENTILES}.
 *
 * @param micros the latency at each percentile of {@link #PERCENTILES}, in microseconds
 * @param maxMicros the longest pair, in microseconds
 * @param samples number of acquire and release pairs measured
 */
public record LatencyFigures(List<Double> micros, double maxMicros, long samples) {

	/** The percentiles measured, in order. */
	public static final List<Double> PERCENTILES = List.of(50.0, 90.0, 99.0, 99.9, 99.99);

	public LatencyFigures {
		micros = List.copyOf(micros);
	}

	public double p50Micros() {
		return at(50.0);
	}

	public double p99Micros() {
		return at(99.0);
	}

	public double p999Micros() {
		return at(99.9);
	}

	private double at(double percentile) {
		return this.micros.get(PERCENTILES.indexOf(percentile));
	}

	@Override
	public String toString() {
		return "p50 %.1f µs, p99 %.1f µs, p99.9 %.1f µs, max %.1f µs, %,d samples".formatted(p50Micros(),
				p99Micros(), p999Micros(), this.maxMicros, this.samples);
	}

}
