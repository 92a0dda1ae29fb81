package dev.locksmith.benchmarks;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import dev.locksmith.benchmarks.lock.BenchEnvironment;
import dev.locksmith.benchmarks.lock.BenchLock;
import dev.locksmith.benchmarks.lock.Library;
import dev.locksmith.benchmarks.report.MachineInfo;
import dev.locksmith.benchmarks.scenario.ContentionFigures;
import dev.locksmith.benchmarks.scenario.CrossProcessContention;
import dev.locksmith.testing.FaultyProxy;
import dev.locksmith.testing.RedisServer;

/**
 * Measures the cohort bound ({@code locksmith.wait.cohort-passes}) on the one-key scenario at the most
 * JVMs of the settings: in each of {@code bench.rounds} rounds the textbook lock, then Locksmith at each
 * bound of {@code bench.cohortPasses}, each in worker JVMs of its own; prints every figure with the load
 * average, then each bound's ratio to the textbook lock of its own round as the median of the rounds with
 * their spread. With {@code bench.latency} (such as {@code 250us±50us}) every client reaches Redis through a
 * {@link FaultyProxy} that delays each direction by that much.
 */
public final class CohortPassesMain {

	/** The command that runs this, from the repository root. */
	static final String COMMAND = "./mvnw -B -ntp -o -Pbenchmarks -pl locksmith-benchmarks -am verify -DskipTests"
			+ " -Dbench.main=CohortPassesMain -Dbench.libraries=TEXTBOOK,LOCKSMITH -Dbench.jvms=3"
			+ " -Dbench.cohortPasses=0,1,2,4,8,16 -Dbench.rounds=3";

	private static final String BOUND_PROPERTY = "locksmith.wait.cohort-passes";

	private CohortPassesMain() {
	}

	public static void main(String[] args) throws Exception {
		BenchSettings settings = BenchSettings.fromSystemProperties();
		int[] bounds = Arrays.stream(System.getProperty("bench.cohortPasses", "0,1,2,4,8,16").split(","))
			.mapToInt((bound) -> Integer.parseInt(bound.trim()))
			.toArray();
		int rounds = Integer.getInteger("bench.rounds", 3);
		NetworkDelay delay = NetworkDelay.fromProperty("0ms");
		System.out.println("Cohort bounds " + Arrays.toString(bounds) + ", " + rounds + " rounds, delay each way "
				+ delay + ": " + settings.describe());
		List<double[]> ratios = new ArrayList<>();
		try (RedisServer redis = RedisServer.start(); FaultyProxy proxy = FaultyProxy.start(redis.port())) {
			delay.applyTo(proxy);
			int port = delay.equals(NetworkDelay.NONE) ? redis.port() : proxy.port();
			measureRounds(settings, redis, port, bounds, rounds, ratios);
		}

		System.out.println("== Locksmith / textbook, " + jvms(settings) + ", median of " + rounds + " rounds [min, max]");
		for (int i = 0; i < bounds.length; i++) {
			int bound = i;
			double[] sorted = ratios.stream().mapToDouble((round) -> round[bound]).sorted().toArray();
			System.out.printf("cohort-passes=%d: %.2f× [%.2f, %.2f]%n", bounds[i], sorted[sorted.length / 2], sorted[0],
					sorted[sorted.length - 1]);
		}
		System.exit(0);
	}

	private static void measureRounds(BenchSettings settings, RedisServer redis, int port, int[] bounds, int rounds,
			List<double[]> ratios) throws Exception {
		try (BenchEnvironment environment = new BenchEnvironment(port)) {
			Map<Library, BenchLock> locks = BenchmarkMain.open(environment, settings);
			CrossProcessContention scenario = new CrossProcessContention(settings, redis, port);
			int jvms = settings.mostJvms();
			try {
				for (int round = 1; round <= rounds; round++) {
					ContentionFigures textbook = measure(scenario, Library.TEXTBOOK, locks, jvms);
					print(round, "textbook", textbook, 1);
					double[] ofRound = new double[bounds.length];
					for (int i = 0; i < bounds.length; i++) {
						System.setProperty(BOUND_PROPERTY, Integer.toString(bounds[i]));
						ContentionFigures locksmith = measure(scenario, Library.LOCKSMITH, locks, jvms);
						ofRound[i] = locksmith.sectionsPerSecond() / textbook.sectionsPerSecond();
						print(round, "cohort-passes=" + bounds[i], locksmith, ofRound[i]);
					}
					ratios.add(ofRound);
				}
			}
			finally {
				locks.values().forEach(BenchLock::close);
			}
		}
	}

	private static ContentionFigures measure(CrossProcessContention scenario, Library library,
			Map<Library, BenchLock> locks, int jvms) throws Exception {
		return scenario.measure(library, locks.get(library)).orElseThrow().at(jvms).orElseThrow();
	}

	private static void print(int round, String what, ContentionFigures figures, double ratio) {
		System.out.printf("round %d %-16s %8.0f sections/s  %.2f× textbook  min/max %.2f  max wait %6.1f ms  lost %d  "
				+ "load %s%n", round, what, figures.sectionsPerSecond(), ratio, figures.fairness(), figures.maxWaitMillis(),
				figures.lostUpdates(), MachineInfo.loadAverage());
	}

	private static String jvms(BenchSettings settings) {
		return settings.mostJvms() + " JVMs x " + settings.threadsPerJvm() + " threads on one key";
	}

}
