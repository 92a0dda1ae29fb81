package dev.locksmith.benchmarks.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.DoublePredicate;
import java.util.function.Function;

import dev.locksmith.benchmarks.lock.Library;
import dev.locksmith.benchmarks.scenario.ContentionFigures;
import dev.locksmith.benchmarks.scenario.Curve;
import dev.locksmith.benchmarks.scenario.LatencyFigures;
import dev.locksmith.benchmarks.scenario.RedisCostFigures;

/**
 * The targets of issue 19, checked against one run's figures: one key from 3 JVMs x 2 threads,
 * 8 threads on distinct keys, the annotated uncontended p50, and Redis CPU per uncontended pair.
 */
public final class Targets {

	/** The JVM count of the one-key target. */
	static final int CONTENDED_JVMS = 3;

	/** The threads per JVM of the one-key target. */
	static final int CONTENDED_THREADS_PER_JVM = 2;

	/** The thread count of the distinct-keys target. */
	static final int DISTINCT_KEY_THREADS = 8;

	private static final List<Library> PEERS = List.of(Library.REDISSON, Library.SPRING_INTEGRATION_SPIN,
			Library.SPRING_INTEGRATION_PUB_SUB, Library.SHEDLOCK);

	private static final List<Library> LOCKSMITH = List.of(Library.LOCKSMITH, Library.LOCKSMITH_ANNOTATED);

	private final BenchmarkResults results;

	private final int threadsPerJvm;

	private final List<Verdict> verdicts = new ArrayList<>();

	private Targets(BenchmarkResults results, int threadsPerJvm) {
		this.results = results;
		this.threadsPerJvm = threadsPerJvm;
	}

	/**
	 * Checks every target on {@code results}, whose one-key curve ran {@code threadsPerJvm} threads
	 * in each JVM; a missing figure misses its target.
	 */
	public static List<Verdict> evaluate(BenchmarkResults results, int threadsPerJvm) {
		Targets targets = new Targets(results, threadsPerJvm);
		LOCKSMITH.forEach(targets::oneKey);
		LOCKSMITH.forEach(targets::distinctKeys);
		targets.uncontendedLatency();
		LOCKSMITH.forEach(targets::redisCost);
		return List.copyOf(targets.verdicts);
	}

	private void oneKey(Library locksmith) {
		String name = "%s, %d JVMs x %d threads on one key: ".formatted(locksmith.label(), CONTENDED_JVMS,
				CONTENDED_THREADS_PER_JVM);
		Optional<Double> ratio = Ratios.toTextbookIfPresent(this.results.jvms(), locksmith, this::contendedThroughput);
		check(name + "sections/s >= 1.0x textbook", ratio, (r) -> r >= 1.0, Ratios::format);
		check(name + "sections/s >= 1.5x textbook (stretch)", ratio, (r) -> r >= 1.5, Ratios::format);
		Optional<ContentionFigures> figures = this.results.jvms().figures(locksmith).flatMap(this::contended);
		check(name + "per-thread min/max >= 0.9", figures.map(ContentionFigures::fairness), (f) -> f >= 0.9,
				"%.2f"::formatted);
		check(name + "max wait <= 50 ms", figures.map(ContentionFigures::maxWaitMillis), (w) -> w <= 50,
				"%.1f ms"::formatted);
		check(name + "lost updates = 0", figures.map((f) -> (double) f.lostUpdates()), (lost) -> lost == 0,
				"%.0f"::formatted);
	}

	private Optional<ContentionFigures> contended(Curve<ContentionFigures> curve) {
		return (this.threadsPerJvm != CONTENDED_THREADS_PER_JVM) ? Optional.empty() : curve.at(CONTENDED_JVMS);
	}

	private Optional<Double> contendedThroughput(Curve<ContentionFigures> curve) {
		return contended(curve).map(ContentionFigures::sectionsPerSecond);
	}

	private void distinctKeys(Library locksmith) {
		String name = "%s, %d threads on distinct keys: ".formatted(locksmith.label(), DISTINCT_KEY_THREADS);
		check(name + ">= 0.9x textbook", Ratios.toTextbookIfPresent(this.results.threads(), locksmith, Targets::eightThreads),
				(r) -> r >= 0.9, Ratios::format);
		Optional<Double> best = PEERS.stream()
			.flatMap((peer) -> this.results.threads().figures(peer).flatMap(Targets::eightThreads).stream())
			.max(Double::compare)
			.filter((b) -> b > 0);
		Optional<Double> ratio = this.results.threads()
			.figures(locksmith)
			.flatMap(Targets::eightThreads)
			.flatMap((own) -> best.map((b) -> own / b));
		check(name + ">= 2x the best peer", ratio, (r) -> r >= 2.0, Ratios::format);
	}

	private static Optional<Double> eightThreads(Curve<Double> curve) {
		return curve.at(DISTINCT_KEY_THREADS);
	}

	private void uncontendedLatency() {
		Library annotated = Library.LOCKSMITH_ANNOTATED;
		check(annotated.label() + ", uncontended p50: <= 1.10x textbook",
				Ratios.toTextbook(this.results.uncontended(), annotated, LatencyFigures::p50Micros), (r) -> r <= 1.10,
				Ratios::format);
	}

	private void redisCost(Library locksmith) {
		check(locksmith.label() + ", Redis CPU per uncontended pair (commandstats): <= 2x textbook",
				Ratios.toTextbook(this.results.redisCost(), locksmith, RedisCostFigures::microsPerPair),
				(r) -> r <= 2.0, Ratios::format);
	}

	private void check(String target, Optional<Double> measured, DoublePredicate met, Function<Double, String> format) {
		this.verdicts.add(measured.map((value) -> new Verdict(met.test(value), target, format.apply(value)))
			.orElseGet(() -> new Verdict(false, target, "no figure")));
	}

}
