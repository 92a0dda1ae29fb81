package dev.locksmith.benchmarks;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

import dev.locksmith.benchmarks.lock.BenchEnvironment;
import dev.locksmith.benchmarks.lock.BenchLock;
import dev.locksmith.benchmarks.lock.Library;
import dev.locksmith.benchmarks.report.MachineInfo;
import dev.locksmith.benchmarks.report.Spread;
import dev.locksmith.benchmarks.scenario.DistinctKeysThroughput;
import dev.locksmith.benchmarks.scenario.RedisCostFigures;
import dev.locksmith.benchmarks.scenario.RedisProbe;
import dev.locksmith.benchmarks.scenario.Scenario;
import dev.locksmith.benchmarks.scenario.UncontendedLatency;
import dev.locksmith.benchmarks.scenario.UncontendedRedisCost;
import dev.locksmith.testing.RedisServer;

/**
 * Measures the single-process targets (the uncontended pair's p50 latency and its Redis cost, and
 * throughput of {@code bench.threads}' most threads each on its own key) in {@code bench.rounds} rounds that
 * take the libraries in alternating order; prints every figure with the load average, then each library's
 * ratio to the textbook lock of the same round as the median of the rounds with their spread, and whether
 * Locksmith meets each target at the median.
 */
public final class TargetRoundsMain {

	/** The command that runs this, from the repository root. */
	static final String COMMAND = "./mvnw -B -ntp -o -Pbenchmarks -pl locksmith-benchmarks -am verify -DskipTests"
			+ " -Dbench.main=TargetRoundsMain -Dbench.libraries=TEXTBOOK,REDISSON,SHEDLOCK,LOCKSMITH -Dbench.threads=8"
			+ " -Dbench.rounds=3";

	private TargetRoundsMain() {
	}

	public static void main(String[] args) throws Exception {
		BenchSettings settings = BenchSettings.fromSystemProperties();
		int rounds = Integer.getInteger("bench.rounds", 3);
		int threads = settings.threads().get(settings.threads().size() - 1);
		System.out.println("Single-process targets, " + rounds + " rounds: " + settings.describe());
		try (RedisServer redis = RedisServer.start(); RedisProbe probe = new RedisProbe(redis);
				BenchEnvironment environment = new BenchEnvironment(redis.port())) {
			List<Figure<?>> figures = List.of(
					new Figure<>("uncontended p50 µs", 1.10, false, new UncontendedLatency(settings),
							(latency) -> latency.p50Micros()),
					new Figure<>("Redis commandstats µs per pair", 2.0, false,
							new UncontendedRedisCost(settings, redis, probe), RedisCostFigures::microsPerPair),
					new Figure<>("Redis process CPU µs per pair", 1.25, false,
							new UncontendedRedisCost(settings, redis, probe), RedisCostFigures::cpuMicrosPerPair),
					new Figure<>(threads + " threads on distinct keys, pairs/s", 0.9, true,
							new DistinctKeysThroughput(settings), (curve) -> curve.at(threads).orElseThrow()));
			Map<Library, BenchLock> locks = BenchmarkMain.open(environment, settings);
			try {
				List<Library> order = new ArrayList<>(locks.keySet());
				for (int round = 1; round <= rounds; round++) {
					for (Figure<?> figure : figures) {
						figure.measureRound(round, order, locks, redis);
					}
					Collections.reverse(order);
				}
			}
			finally {
				locks.values().forEach(BenchLock::close);
			}
			System.out.println("== Each library over the textbook lock of its round, median of " + rounds
					+ " rounds [min–max]");
			figures.forEach(Figure::printRatios);
		}
		System.exit(0);
	}

	/**
	 * One figure of one scenario, its values by library and round, and Locksmith's target as a ratio to
	 * the textbook lock.
	 */
	private static final class Figure<F> {

		private final String name;

		private final double target;

		private final boolean higherIsBetter;

		private final Scenario<F> scenario;

		private final ToDoubleFunction<F> value;

		private final Map<Library, List<Double>> ratios = new EnumMap<>(Library.class);

		Figure(String name, double target, boolean higherIsBetter, Scenario<F> scenario, ToDoubleFunction<F> value) {
			this.name = name;
			this.target = target;
			this.higherIsBetter = higherIsBetter;
			this.scenario = scenario;
			this.value = value;
		}

		void measureRound(int round, List<Library> order, Map<Library, BenchLock> locks, RedisServer redis)
				throws Exception {
			Map<Library, Double> values = new LinkedHashMap<>();
			for (Library library : order) {
				redis.command("FLUSHALL");
				Optional<F> figures = this.scenario.measure(library, locks.get(library));
				figures.ifPresent((measured) -> values.put(library, this.value.applyAsDouble(measured)));
			}
			Double textbook = values.get(Library.TEXTBOOK);
			StringBuilder line = new StringBuilder("round %d %-38s".formatted(round, this.name));
			values.forEach((library, measured) -> {
				line.append("  %s %.1f".formatted(library.label(), measured));
				if (textbook != null) {
					double ratio = measured / textbook;
					this.ratios.computeIfAbsent(library, (key) -> new ArrayList<>()).add(ratio);
					line.append(" (%.2f×)".formatted(ratio));
				}
			});
			System.out.println(line + "  load " + MachineInfo.loadAverage());
		}

		void printRatios() {
			this.ratios.forEach((library, values) -> {
				Spread spread = Spread.of(values).orElseThrow();
				String verdict = "";
				if (library == Library.LOCKSMITH) {
					boolean met = this.higherIsBetter ? spread.median() >= this.target : spread.median() <= this.target;
					verdict = "  target %s %.2f×: %s".formatted(this.higherIsBetter ? ">=" : "<=", this.target,
							met ? "met" : "NOT MET");
				}
				System.out.printf("%-38s %-30s %s%s%n", this.name, library.label(), spread.format("%.2f×"), verdict);
			});
		}

	}

}
