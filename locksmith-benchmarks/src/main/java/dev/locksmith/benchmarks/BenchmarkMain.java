package dev.locksmith.benchmarks;

import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import dev.locksmith.benchmarks.lock.BenchEnvironment;
import dev.locksmith.benchmarks.lock.BenchLock;
import dev.locksmith.benchmarks.lock.Library;
import dev.locksmith.benchmarks.report.BenchmarkResults;
import dev.locksmith.benchmarks.report.MachineInfo;
import dev.locksmith.benchmarks.report.MarkdownReport;
import dev.locksmith.benchmarks.report.ReportCharts;
import dev.locksmith.benchmarks.report.Targets;
import dev.locksmith.benchmarks.report.Verdict;
import dev.locksmith.benchmarks.scenario.CrossProcessContention;
import dev.locksmith.benchmarks.scenario.DistinctKeysThroughput;
import dev.locksmith.benchmarks.scenario.Footprint;
import dev.locksmith.benchmarks.scenario.RedisProbe;
import dev.locksmith.benchmarks.scenario.RenewalCost;
import dev.locksmith.benchmarks.scenario.ReadMostlyAndPermits;
import dev.locksmith.benchmarks.scenario.ScenarioRunner;
import dev.locksmith.benchmarks.scenario.UncontendedLatency;
import dev.locksmith.benchmarks.scenario.UncontendedRedisCost;
import dev.locksmith.testing.RedisServer;

/**
 * Runs every scenario for every library against one Redis started for the run, then writes
 * {@code docs/benchmarks.md} and its charts under the working directory and prints the targets.
 */
public final class BenchmarkMain {

	/** The command that runs this with the default sizes, from the repository root. */
	static final String COMMAND = "./mvnw -B -ntp -o -Pbenchmarks -pl locksmith-benchmarks -am verify -DskipTests";

	private static final Path DOCS = Path.of("docs");

	private static final Path REPORT = DOCS.resolve("benchmarks.md");

	private BenchmarkMain() {
	}

	public static void main(String[] args) throws Exception {
		BenchSettings settings = BenchSettings.fromSystemProperties();
		System.out.println("Benchmarks: " + settings.describe());
		try (RedisServer redis = RedisServer.start();
				RedisProbe probe = new RedisProbe(redis);
				BenchEnvironment environment = new BenchEnvironment(redis.port())) {
			MachineInfo machine = MachineInfo.detect(redis);
			Map<Library, BenchLock> locks = open(environment, settings);
			try {
				BenchmarkResults results = measure(settings, redis, probe, locks);
				List<Verdict> verdicts = Targets.evaluate(results, settings.threadsPerJvm());
				ReportCharts.write(DOCS, results);
				MarkdownReport.write(REPORT, results, machine, MachineInfo.loadAverage(), settings, verdicts, COMMAND);
				System.out.println("== Targets");
				verdicts.forEach((verdict) -> System.out.println(verdict.line()));
				System.out.println("Wrote " + REPORT.toAbsolutePath() + " and its charts");
			}
			finally {
				locks.values().forEach(BenchLock::close);
			}
		}
		// some libraries leave non-daemon threads behind after shutdown
		System.exit(0);
	}

	/** Opens the clients of the libraries of {@code settings}. */
	static Map<Library, BenchLock> open(BenchEnvironment environment, BenchSettings settings) {
		Map<Library, BenchLock> locks = new EnumMap<>(Library.class);
		for (Library library : settings.libraries()) {
			locks.put(library, library.open(environment));
		}
		return locks;
	}

	private static BenchmarkResults measure(BenchSettings settings, RedisServer redis, RedisProbe probe,
			Map<Library, BenchLock> locks) {
		ScenarioRunner runner = new ScenarioRunner(redis, locks);
		return new BenchmarkResults(runner.run(new UncontendedLatency(settings)),
				runner.run(new UncontendedRedisCost(settings, redis, probe)),
				runner.run(new DistinctKeysThroughput(settings)), runner.run(new CrossProcessContention(settings, redis, redis.port())),
				runner.run(new Footprint(settings, probe)), runner.run(new RenewalCost(settings, probe)),
				runner.run(new ReadMostlyAndPermits(settings, redis)));
	}

}
