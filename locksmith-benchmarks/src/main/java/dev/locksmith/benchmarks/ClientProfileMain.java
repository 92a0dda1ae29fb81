package dev.locksmith.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import jdk.jfr.Configuration;
import jdk.jfr.Recording;

import dev.locksmith.benchmarks.lock.BenchEnvironment;
import dev.locksmith.benchmarks.lock.BenchLock;
import dev.locksmith.benchmarks.lock.Library;
import dev.locksmith.benchmarks.report.MachineInfo;
import dev.locksmith.benchmarks.report.TopFrames;
import dev.locksmith.benchmarks.scenario.DistinctKeysThroughput;
import dev.locksmith.benchmarks.scenario.UncontendedLatency;
import dev.locksmith.testing.RedisServer;

/**
 * Profiles the client side of the uncontended pair and of {@code bench.threads} threads on distinct keys,
 * for each library of the settings, each under a JFR recording of its own (the JDK's {@code profile}
 * settings, threads sampled every millisecond) written to {@code target/profiles/<library>-<scenario>.jfr}; prints the figures with the load
 * average, and where each recording's execution and allocation samples fall ({@link TopFrames}).
 */
public final class ClientProfileMain {

	/** The command that profiles Locksmith and the textbook lock at 8 threads, from the repository root. */
	static final String COMMAND = "./mvnw -B -ntp -o -Pbenchmarks -pl locksmith-benchmarks -am verify -DskipTests"
			+ " -Dbench.main=ClientProfileMain -Dbench.libraries=TEXTBOOK,LOCKSMITH -Dbench.threads=8"
			+ " -Dbench.warmup=3s -Dbench.measure=10s";

	/** How often each running thread is sampled: ten times the {@code profile} settings' rate. */
	private static final Duration SAMPLING = Duration.ofMillis(1);

	/** How many frames each profile table shows. */
	private static final int TOP_FRAMES = 12;

	private static final Path PROFILES = Path.of("locksmith-benchmarks", "target", "profiles");

	private ClientProfileMain() {
	}

	public static void main(String[] args) throws Exception {
		BenchSettings settings = BenchSettings.fromSystemProperties();
		System.out.println("Client profiles: " + settings.describe());
		Files.createDirectories(PROFILES);
		try (RedisServer redis = RedisServer.start(); BenchEnvironment environment = new BenchEnvironment(redis.port())) {
			Map<Library, BenchLock> locks = BenchmarkMain.open(environment, settings);
			try {
				for (Map.Entry<Library, BenchLock> lock : locks.entrySet()) {
					Library library = lock.getKey();
					try (Recording recording = start()) {
						Object figures = new UncontendedLatency(settings).measure(library, lock.getValue()).orElseThrow();
						System.out.println(library + " uncontended: " + figures + "; load " + MachineInfo.loadAverage());
						printTopFrames(dump(recording, library.name() + "-uncontended.jfr"));
					}
					try (Recording recording = start()) {
						Object figures = new DistinctKeysThroughput(settings).measure(library, lock.getValue()).orElseThrow();
						System.out.println(library + " distinct keys, pairs/s by threads: " + figures + "; load "
								+ MachineInfo.loadAverage());
						printTopFrames(dump(recording, library.name() + "-distinct-keys.jfr"));
					}
				}
			}
			finally {
				locks.values().forEach(BenchLock::close);
			}
		}
		System.out.println("Wrote the recordings to " + PROFILES.toAbsolutePath());
		System.exit(0);
	}

	private static Path dump(Recording recording, String name) throws IOException {
		Path file = PROFILES.resolve(name);
		recording.dump(file);
		return file;
	}

	/** Prints where the recording's samples fall, by the Locksmith frame nearest the top (see {@link TopFrames}). */
	private static void printTopFrames(Path recording) throws IOException {
		TopFrames execution = TopFrames.executionSamples(recording);
		System.out.printf("| execution samples (%,d), by nearest Locksmith frame | %% |%n| --- | ---: |%n", execution.total());
		execution.table(TOP_FRAMES).forEach(System.out::println);
		TopFrames allocation = TopFrames.allocationSamples(recording);
		System.out.printf("| allocation samples (%,d MB), by nearest Locksmith frame | %% |%n| --- | ---: |%n",
				allocation.total() >> 20);
		allocation.table(TOP_FRAMES).forEach(System.out::println);
	}

	private static Recording start() throws Exception {
		Recording recording = new Recording(Configuration.getConfiguration("profile"));
		recording.enable("jdk.ExecutionSample").withPeriod(SAMPLING);
		recording.enable("jdk.NativeMethodSample").withPeriod(SAMPLING);
		recording.start();
		return recording;
	}

}
