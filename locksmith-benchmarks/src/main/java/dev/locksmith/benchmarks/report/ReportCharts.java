package dev.locksmith.benchmarks.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.IntStream;

import dev.locksmith.benchmarks.lock.Library;
import dev.locksmith.benchmarks.lock.Library.Store;
import dev.locksmith.benchmarks.scenario.Bytes;
import dev.locksmith.benchmarks.scenario.ContentionFigures;
import dev.locksmith.benchmarks.scenario.Curve;
import dev.locksmith.benchmarks.scenario.FootprintFigures;
import dev.locksmith.benchmarks.scenario.LatencyFigures;
import dev.locksmith.benchmarks.scenario.RenewalFigures;
import dev.locksmith.benchmarks.scenario.ScenarioResults;

/** Draws every chart of the report from one run's results, each into its own PNG. */
public final class ReportCharts {

	static final String OVERVIEW = "benchmarks.png";

	static final String THREADS = "benchmarks-threads.png";

	static final String JVMS = "benchmarks-jvms.png";

	static final String LATENCY = "benchmarks-latency.png";

	static final String HELD = "benchmarks-held.png";

	static final String WAITERS = "benchmarks-waiters.png";

	static final String RENEWAL = "benchmarks-renewal.png";

	private ReportCharts() {
	}

	/** Writes every chart into {@code directory}. */
	public static void write(Path directory, BenchmarkResults results) throws IOException {
		BenchmarkChart.write(directory.resolve(OVERVIEW), results);
		CurveChart.write(directory.resolve(THREADS), "Throughput against threads, each on its own key",
				CurveChart.doublingAxis("threads"), List.of(new CurveChart.Panel("acquire + release pairs/s", false,
						curves(results.threads(), (curve) -> curve.values(Double::doubleValue)))));
		CurveChart.write(directory.resolve(JVMS), "Throughput against JVMs on one key",
				CurveChart.countAxis("worker JVMs"),
				List.of(new CurveChart.Panel("critical sections/s", false,
						curves(results.jvms(), (curve) -> curve.values(ContentionFigures::sectionsPerSecond))),
						new CurveChart.Panel("max wait, ms", true,
								curves(results.jvms(), (curve) -> curve.values(ContentionFigures::maxWaitMillis)))));
		CurveChart.write(directory.resolve(LATENCY), "Uncontended acquire + release latency, 1 thread",
				CurveChart.namedAxis("percentile",
						LatencyFigures.PERCENTILES.stream().map(ReportCharts::percentileName).toList()),
				List.of(new CurveChart.Panel("µs", true, curves(results.uncontended(), ReportCharts::byIndex))));
		footprint(directory.resolve(HELD), "Memory against locks held at once", "held locks", results.footprint(),
				FootprintFigures::held);
		footprint(directory.resolve(WAITERS), "Memory against waiters for one held lock", "waiters",
				results.footprint(), FootprintFigures::waiters);
		CurveChart.write(directory.resolve(RENEWAL), "Renewal cost against held locks",
				CurveChart.countAxis("held locks"),
				List.of(new CurveChart.Panel("script calls/s", false,
						curves(results.renewal(), (curve) -> curve.values(RenewalFigures::scriptCallsPerSecond))),
						new CurveChart.Panel("Redis CPU, % of one core", false,
								curves(results.renewal(), (curve) -> curve.values(RenewalFigures::redisCpuPercent)))));
	}

	/** A percentile as the report names it: p50, p99.9. */
	static String percentileName(double percentile) {
		return "p" + ((percentile == Math.rint(percentile)) ? Integer.toString((int) percentile)
				: Double.toString(percentile));
	}

	private static void footprint(Path file, String title, String xLabel, ScenarioResults<FootprintFigures> results,
			Function<FootprintFigures, Curve<Bytes>> curve) throws IOException {
		CurveChart.write(file, title, CurveChart.countAxis(xLabel),
				List.of(new CurveChart.Panel("heap bytes", false,
						curves(results, (f) -> curve.apply(f).values((bytes) -> (double) bytes.heap()))),
						new CurveChart.Panel("Redis bytes (MEMORY USAGE)", false,
								curves(results, (f) -> curve.apply(f).values((bytes) -> (double) bytes.redis())))));
	}

	private static SortedMap<Integer, Double> byIndex(LatencyFigures figures) {
		SortedMap<Integer, Double> values = new TreeMap<>();
		IntStream.range(0, figures.micros().size()).forEach((i) -> values.put(i, figures.micros().get(i)));
		return values;
	}

	private static <R> Map<Library, SortedMap<Integer, Double>> curves(ScenarioResults<R> results,
			Function<R, SortedMap<Integer, Double>> values) {
		Map<Library, SortedMap<Integer, Double>> curves = new EnumMap<>(Library.class);
		for (Library library : Library.on(Store.REDIS)) {
			results.figures(library).map(values).ifPresent((curve) -> curves.put(library, curve));
		}
		return curves;
	}

}
