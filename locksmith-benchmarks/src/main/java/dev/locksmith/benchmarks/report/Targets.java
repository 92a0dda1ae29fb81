package dev.locksmith.benchmarks.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.DoublePredicate;
import java.util.function.Function;

import dev.locksmith.benchmarks.lock.Library;
import dev.locksmith.benchmarks.scenario.ContentionFigures;
import dev.locksmith.benchmarks.scenario.LatencyFigures;
import dev.locksmith.benchmarks.scenario.ThroughputFigures;

/** The performance targets Locksmith is held to, checked against one run's figures. */
public final class Targets {

	private static final List<Library> OTHER_LIBRARIES = List.of(Library.REDISSON, Library.SPRING_INTEGRATION_SPIN,
			Library.SPRING_INTEGRATION_PUB_SUB, Library.SHEDLOCK);

	private final BenchmarkResults results;

	private final List<Verdict> verdicts = new ArrayList<>();

	private Targets(BenchmarkResults results) {
		this.results = results;
	}

	/** Checks every target; a missing figure misses its target. */
	public static List<Verdict> evaluate(BenchmarkResults results) {
		Targets targets = new Targets(results);
		targets.uncontended();
		for (Library locksmith : List.of(Library.LOCKSMITH, Library.LOCKSMITH_ANNOTATED)) {
			targets.distinctKeys(locksmith);
			targets.contention(locksmith);
		}
		return List.copyOf(targets.verdicts);
	}

	private void uncontended() {
		Library annotated = Library.LOCKSMITH_ANNOTATED;
		check(annotated.label() + " uncontended p50 <= 1.10x textbook p50",
				Ratios.toTextbook(this.results.uncontended(), annotated, LatencyFigures::p50Micros), (r) -> r <= 1.10,
				Ratios::format);
	}

	private void distinctKeys(Library locksmith) {
		check(locksmith.label() + " 8 threads on distinct keys >= 1.0x textbook",
				Ratios.toTextbook(this.results.distinctKeys(), locksmith, ThroughputFigures::opsPerSecond),
				(r) -> r >= 1.0, Ratios::format);
	}

	private void contention(Library locksmith) {
		String name = locksmith.label() + " cross-process one key ";
		Optional<ContentionFigures> figures = this.results.contention().figures(locksmith);
		check(name + "throughput >= 1.5x textbook",
				Ratios.toTextbook(this.results.contention(), locksmith, ContentionFigures::sectionsPerSecond),
				(r) -> r >= 1.5, Ratios::format);
		check(name + "throughput >= 3x the best other library", bestOtherLibraryRatio(figures), (r) -> r >= 3.0,
				Ratios::format);
		check(name + "lost updates = 0", figures.map((f) -> (double) f.lostUpdates()), (lost) -> lost == 0,
				(lost) -> "%.0f".formatted(lost));
		check(name + "per-thread min/max >= 0.5", figures.map(ContentionFigures::fairness), (f) -> f >= 0.5,
				(f) -> "%.2f".formatted(f));
		check(name + "max wait <= 50 ms", figures.map(ContentionFigures::maxWaitMillis), (w) -> w <= 50,
				(w) -> "%.1f ms".formatted(w));
	}

	private Optional<Double> bestOtherLibraryRatio(Optional<ContentionFigures> figures) {
		Optional<Double> best = OTHER_LIBRARIES.stream()
			.flatMap((library) -> this.results.contention().figures(library).stream())
			.map(ContentionFigures::sectionsPerSecond)
			.max(Double::compare)
			.filter((b) -> b > 0);
		return figures.flatMap((f) -> best.map((b) -> f.sectionsPerSecond() / b));
	}

	private void check(String target, Optional<Double> measured, DoublePredicate met, Function<Double, String> format) {
		this.verdicts.add(measured.map((value) -> new Verdict(met.test(value), target, format.apply(value)))
			.orElseGet(() -> new Verdict(false, target, "no figure")));
	}

}
