package dev.locksmith.benchmarks;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.locksmith.benchmarks.lock.BenchEnvironment;
import dev.locksmith.benchmarks.lock.BenchLock;
import dev.locksmith.benchmarks.lock.BenchPostgres;
import dev.locksmith.benchmarks.lock.Library;
import dev.locksmith.benchmarks.lock.Library.Store;
import dev.locksmith.benchmarks.report.MachineInfo;
import dev.locksmith.benchmarks.report.PostgresReport;
import dev.locksmith.benchmarks.report.PostgresRound;
import dev.locksmith.benchmarks.scenario.ContentionFigures;
import dev.locksmith.benchmarks.scenario.CrossProcessContention;
import dev.locksmith.benchmarks.scenario.DistinctKeysThroughput;
import dev.locksmith.benchmarks.scenario.ScenarioRunner;
import dev.locksmith.benchmarks.scenario.UncontendedLatency;
import dev.locksmith.testing.RedisServer;

/**
 * Measures the libraries on PostgreSQL ({@link Store#POSTGRESQL}, those of {@code bench.libraries} or all) on one
 * PostgreSQL started for the run: the uncontended pair, threads on distinct keys and worker JVMs on one key, in
 * {@code bench.rounds} rounds that take the libraries in alternating order; prints every figure with the load
 * average, writes its section of {@code docs/benchmarks.md}, and fails when an update was lost. A Redis of the
 * run holds the counter of the one-key section only.
 */
public final class PostgresMain {

	/** The command that runs this, from the repository root. */
	static final String COMMAND = "./mvnw -B -ntp -o -Pbenchmarks -pl locksmith-benchmarks -am verify -DskipTests"
			+ " -Dbench.main=PostgresMain -Dbench.threads=8 -Dbench.jvms=3 -Dbench.rounds=3";

	private static final Path REPORT = Path.of("docs", "benchmarks.md");

	private PostgresMain() {
	}

	public static void main(String[] args) throws Exception {
		BenchSettings settings = BenchSettings.fromSystemProperties();
		int rounds = Integer.getInteger("bench.rounds", 3);
		List<Library> libraries = libraries(settings);
		System.out.println("PostgreSQL benchmarks of " + libraries + ", " + rounds + " rounds: " + settings.describe());
		List<PostgresRound> results = new ArrayList<>();
		try (RedisServer redis = RedisServer.start(); BenchPostgres postgres = BenchPostgres.start()) {
			System.setProperty(BenchEnvironment.JDBC_URL_PROPERTY, postgres.jdbcUrl());
			MachineInfo machine = MachineInfo.detect(redis);
			try (BenchEnvironment environment = new BenchEnvironment(redis.port())) {
				Map<Library, BenchLock> locks = new EnumMap<>(Library.class);
				try {
					libraries.forEach((library) -> locks.put(library, library.open(environment)));
					for (int round = 1; round <= rounds; round++) {
						List<Library> order = (round % 2 == 1) ? libraries : reversed(libraries);
						System.out.println("== Round " + round + " of " + rounds + ", in the order " + order
								+ "; load average " + MachineInfo.loadAverage());
						results.add(measure(settings, redis, inOrder(order, locks)));
					}
				}
				finally {
					locks.values().forEach(BenchLock::close);
				}
			}
			PostgresReport.write(REPORT, results, libraries, machine, postgres.describe(), settings, COMMAND);
		}
		System.out.println("Wrote the section '" + PostgresReport.SECTION + "' of " + REPORT.toAbsolutePath());
		long lost = results.stream()
			.flatMap((round) -> libraries.stream()
				.flatMap((library) -> round.contended().figures(library).stream())
				.flatMap((curve) -> curve.points().values().stream()))
			.mapToLong(ContentionFigures::lostUpdates)
			.sum();
		System.out.println("Lost updates: " + lost);
		// some libraries leave non-daemon threads behind after shutdown
		System.exit((lost == 0) ? 0 : 1);
	}

	/** The PostgreSQL libraries of {@code bench.libraries}, or all of them when it names none. */
	private static List<Library> libraries(BenchSettings settings) {
		List<Library> chosen = Library.on(Store.POSTGRESQL).stream().filter(settings.libraries()::contains).toList();
		return chosen.isEmpty() ? Library.on(Store.POSTGRESQL) : chosen;
	}

	private static List<Library> reversed(List<Library> libraries) {
		List<Library> reversed = new ArrayList<>(libraries);
		Collections.reverse(reversed);
		return reversed;
	}

	private static Map<Library, BenchLock> inOrder(List<Library> order, Map<Library, BenchLock> locks) {
		Map<Library, BenchLock> ordered = new LinkedHashMap<>();
		order.forEach((library) -> ordered.put(library, locks.get(library)));
		return ordered;
	}

	private static PostgresRound measure(BenchSettings settings, RedisServer redis, Map<Library, BenchLock> locks) {
		ScenarioRunner runner = new ScenarioRunner(redis, locks);
		return new PostgresRound(runner.run(new UncontendedLatency(settings)),
				runner.run(new DistinctKeysThroughput(settings)),
				runner.run(new CrossProcessContention(settings, redis, redis.port())), MachineInfo.loadAverage());
	}

}
