package dev.locksmith.benchmarks.report;

import java.util.Optional;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

import dev.locksmith.benchmarks.lock.Library;
import dev.locksmith.benchmarks.scenario.ScenarioResults;

/** Compares one library's figure with the textbook lock's, the baseline of most ratios, or with another library's. */
final class Ratios {

	private Ratios() {
	}

	/** {@code figure} of {@code library} divided by that of the textbook lock; empty when either is missing or the baseline is zero. */
	static <R> Optional<Double> toTextbook(ScenarioResults<R> results, Library library, ToDoubleFunction<R> figure) {
		return toTextbookIfPresent(results, library, (R figures) -> Optional.of(figure.applyAsDouble(figures)));
	}

	/** Like {@link #toTextbook(ScenarioResults, Library, ToDoubleFunction)}, for a figure that may be missing, such as a point of a curve. */
	static <R> Optional<Double> toTextbookIfPresent(ScenarioResults<R> results, Library library,
			Function<R, Optional<Double>> figure) {
		return toLibrary(Library.TEXTBOOK, results, library, figure);
	}

	/** {@code figure} of {@code library} divided by that of {@code baseline}; empty when either is missing or the baseline is zero. */
	static <R> Optional<Double> toLibrary(Library baseline, ScenarioResults<R> results, Library library,
			Function<R, Optional<Double>> figure) {
		Optional<Double> base = results.figures(baseline).flatMap(figure).filter((b) -> b > 0);
		return base.flatMap((b) -> results.figures(library).flatMap(figure).map((f) -> f / b));
	}

	/** A ratio as the report prints it. */
	static String format(Optional<Double> ratio) {
		return ratio.map(Ratios::format).orElse("–");
	}

	/** A ratio as the report prints it. */
	static String format(double ratio) {
		return "%.2f×".formatted(ratio);
	}

}
