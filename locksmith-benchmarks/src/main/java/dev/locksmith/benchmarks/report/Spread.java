package dev.locksmith.benchmarks.report;

import java.util.Collection;
import java.util.Optional;

/**
 * A figure over several rounds: their median, with the smallest and the largest, so that a reader sees how
 * much a noisy machine moved it.
 *
 * @param median the middle value, or the mean of the two middle ones for an even count
 * @param min the smallest value
 * @param max the largest value
 * @param rounds how many rounds measured it
 */
public record Spread(double median, double min, double max, int rounds) {

	/** The spread of {@code values}, or empty when there is none. */
	public static Optional<Spread> of(Collection<Double> values) {
		if (values.isEmpty()) {
			return Optional.empty();
		}
		double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
		int middle = sorted.length / 2;
		double median = (sorted.length % 2 == 1) ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
		return Optional.of(new Spread(median, sorted[0], sorted[sorted.length - 1], sorted.length));
	}

	/** The median then the smallest and largest in brackets, each formatted with {@code format}, such as {@code %.2f}. */
	public String format(String format) {
		return format.formatted(this.median) + " [" + format.formatted(this.min) + "–" + format.formatted(this.max)
				+ "]";
	}

}
