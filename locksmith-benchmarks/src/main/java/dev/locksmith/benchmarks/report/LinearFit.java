package dev.locksmith.benchmarks.report;

import java.util.Optional;
import java.util.SortedMap;

/** The slope of a least-squares line through points, such as bytes per held lock from bytes against held locks. */
public final class LinearFit {

	private LinearFit() {
	}

	/**
	 * The least-squares slope of {@code points}; with one point, its y over its x. A fixed cost that
	 * every point shares, such as a subscription made once, falls into the intercept and not into the
	 * slope. Empty without points or when every x is the same.
	 */
	public static Optional<Double> slope(SortedMap<Integer, Double> points) {
		int n = points.size();
		if (n == 1) {
			int x = points.firstKey();
			return (x == 0) ? Optional.empty() : Optional.of(points.get(x) / x);
		}
		double meanX = points.keySet().stream().mapToDouble(Integer::doubleValue).average().orElse(0);
		double meanY = points.values().stream().mapToDouble(Double::doubleValue).average().orElse(0);
		double covariance = 0;
		double variance = 0;
		for (var point : points.entrySet()) {
			double dx = point.getKey() - meanX;
			covariance += dx * (point.getValue() - meanY);
			variance += dx * dx;
		}
		return (variance == 0) ? Optional.empty() : Optional.of(covariance / variance);
	}

}
