package dev.locksmith.benchmarks;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.locksmith.benchmarks.lock.BenchEnvironment;
import dev.locksmith.benchmarks.lock.BenchLock;
import dev.locksmith.benchmarks.lock.Library;
import dev.locksmith.benchmarks.report.LinkResults;
import dev.locksmith.benchmarks.report.MachineInfo;
import dev.locksmith.benchmarks.report.NetworkLatencyReport;
import dev.locksmith.benchmarks.scenario.CrossProcessContention;
import dev.locksmith.benchmarks.scenario.ScenarioRunner;
import dev.locksmith.benchmarks.scenario.UncontendedLatency;
import dev.locksmith.testing.FaultyProxy;
import dev.locksmith.testing.RedisServer;

/**
 * Runs the one-key scenario across worker JVMs and the uncontended pair with every client behind a
 * {@link FaultyProxy} in front of one Redis, first without delay, then with {@code bench.latency}
 * each way ({@code 20ms±10ms} by default); writes their section of {@code docs/benchmarks.md} and
 * fails when an update was lost.
 */
public final class NetworkLatencyMain {

	/** The command that runs this for Locksmith, Redisson and the textbook lock, from the repository root. */
	static final String COMMAND = "./mvnw -B -ntp -o -Pbenchmarks -pl locksmith-benchmarks -am verify -DskipTests"
			+ " -Dbench.main=NetworkLatencyMain -Dbench.latency=20ms+-10ms -Dbench.libraries=TEXTBOOK,REDISSON,LOCKSMITH"
			+ " -Dbench.jvms=3 -Dbench.warmup=5s -Dbench.measure=20s";

	private static final Path REPORT = Path.of("docs", "benchmarks.md");

	private NetworkLatencyMain() {
	}

	public static void main(String[] args) throws Exception {
		BenchSettings settings = BenchSettings.fromSystemProperties();
		NetworkDelay delay = NetworkDelay.fromProperty("20ms±10ms");
		System.out.println("Benchmarks without delay and through " + delay + " each way: " + settings.describe());
		List<LinkResults> links = new ArrayList<>();
		try (RedisServer redis = RedisServer.start()) {
			MachineInfo machine = MachineInfo.detect(redis);
			for (NetworkDelay link : List.of(NetworkDelay.NONE, delay)) {
				links.add(measure(settings, redis, link));
			}
			NetworkLatencyReport.write(REPORT, links, machine, MachineInfo.loadAverage(), settings, COMMAND);
		}
		System.out.println("Wrote the section '" + NetworkLatencyReport.SECTION + "' of " + REPORT.toAbsolutePath());
		long lost = links.stream().mapToLong(LinkResults::lostUpdates).sum();
		System.out.println("Lost updates: " + lost);
		// some libraries leave non-daemon threads behind after shutdown
		System.exit((lost == 0) ? 0 : 1);
	}

	private static LinkResults measure(BenchSettings settings, RedisServer redis, NetworkDelay delay) throws Exception {
		System.out.println("== Delay each way: " + delay);
		try (FaultyProxy proxy = FaultyProxy.start(redis.port());
				BenchEnvironment environment = new BenchEnvironment(proxy.port())) {
			delay.applyTo(proxy);
			Map<Library, BenchLock> locks = BenchmarkMain.open(environment, settings);
			try {
				ScenarioRunner runner = new ScenarioRunner(redis, locks);
				return new LinkResults(delay, runner.run(new CrossProcessContention(settings, redis, proxy.port())),
						runner.run(new UncontendedLatency(settings)));
			}
			finally {
				locks.values().forEach(BenchLock::close);
			}
		}
	}

}
