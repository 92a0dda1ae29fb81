package dev.locksmith.benchmarks.scenario;

import java.util.Collections;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;

/**
 * Figures measured at several sizes of one scenario, such as throughput at 1, 2, 4... threads.
 *
 * @param points the figures by size, smallest first
 * @param <F> the figures at one size
 */
public record Curve<F>(SortedMap<Integer, F> points) {

	public Curve {
		points = Collections.unmodifiableSortedMap(new TreeMap<>(points));
	}

	/** The figures at size {@code x}, if it was measured. */
	public Optional<F> at(int x) {
		return Optional.ofNullable(this.points.get(x));
	}

	/** One number of the figures at every size. */
	public SortedMap<Integer, Double> values(ToDoubleFunction<F> figure) {
		SortedMap<Integer, Double> values = new TreeMap<>();
		this.points.forEach((x, figures) -> values.put(x, figure.applyAsDouble(figures)));
		return values;
	}

	@Override
	public String toString() {
		return this.points.toString();
	}

}
