package dev.locksmith.benchmarks.report;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.locksmith.benchmarks.BenchSettings;
import dev.locksmith.benchmarks.NetworkDelay;
import dev.locksmith.benchmarks.lock.Library;
import dev.locksmith.benchmarks.scenario.ContentionFigures;
import dev.locksmith.benchmarks.scenario.Curve;
import dev.locksmith.benchmarks.scenario.LatencyFigures;
import dev.locksmith.benchmarks.scenario.Results;

import static org.assertj.core.api.Assertions.assertThat;

class NetworkLatencyReportTests {

	private static final BenchSettings SETTINGS = new BenchSettings(Duration.ofSeconds(1), Duration.ofSeconds(10),
			Duration.ofSeconds(1), List.of(1), List.of(3), 2, List.of(10), List.of(10), List.of(10),
			EnumSet.of(Library.LOCKSMITH));

	private static final MachineInfo MACHINE = new MachineInfo("cpu", 2, "jdk", "os", "7.0.15", "2026-12-02 00:00 UTC",
			"1.00, 2.00, 3.00");

	@Test
	void theSectionShowsEachLibraryWithoutAndWithTheDelayAndItsLostUpdates(@TempDir Path dir) throws Exception {
		Path file = dir.resolve("benchmarks.md");
		Files.writeString(file, "# Benchmarks\n\n");
		NetworkLatencyReport.write(file, List.of(link(NetworkDelay.NONE, 900, 2, 300), link(delay(), 9, 1, 90_000)),
				MACHINE, "4.00, 5.00, 6.00", SETTINGS, "command");
		assertThat(Files.readString(file)).startsWith("# Benchmarks\n\n<!-- section network-latency -->\n"
				+ "## Through 20 ms ± 10 ms of network latency\n")
			.contains("load average (1, 5, 15 min) at the start 1.00, 2.00, 3.00, at the end 4.00, 5.00, 6.00")
			.contains("; warm-up 1000 ms and until the worker JVMs' JIT compilers settle, measurement 10000 ms, 2 threads"
					+ " in each worker JVM.")
			.contains("| Locksmith LockService | none | 3 | 900.0 | 0.90 | 40.0 | 2 of 1,000 |\n"
					+ "| Locksmith LockService | 20 ms ± 10 ms | 3 | 9.0 | 0.90 | 40.0 | 1 of 1,000 |\n")
			.contains("| Locksmith LockService | none | 50.0 | 0.30 | 0.30 | 0.30 | 500 |\n"
					+ "| Locksmith LockService | 20 ms ± 10 ms | 50.0 | 90.00 | 90.00 | 90.00 | 500 |\n")
			.endsWith("<!-- end of section network-latency -->\n");
	}

	@Test
	void theFullReportKeepsTheSection(@TempDir Path dir) throws Exception {
		Path file = dir.resolve("benchmarks.md");
		NetworkLatencyReport.write(file, List.of(link(NetworkDelay.NONE, 900, 0, 300), link(delay(), 9, 0, 90_000)),
				MACHINE, "4.00, 5.00, 6.00", SETTINGS, "command");
		String section = Files.readString(file);
		BenchmarkResults nothing = new BenchmarkResults(Results.of(Map.of()), Results.of(Map.of()),
				Results.of(Map.of()), Results.of(Map.of()), Results.of(Map.of()), Results.of(Map.of()),
				Results.of(Map.of()));
		MarkdownReport.write(file, nothing, MACHINE, "4.00, 5.00, 6.00", SETTINGS, List.of(), "command");
		assertThat(Files.readString(file)).startsWith("# Benchmarks\n").endsWith("\n\n" + section);
	}

	private static NetworkDelay delay() {
		return new NetworkDelay(Duration.ofMillis(20), Duration.ofMillis(10));
	}

	private static LinkResults link(NetworkDelay delay, double sectionsPerSecond, long lost, double pairMicros) {
		ContentionFigures contended = new ContentionFigures(sectionsPerSecond, 1000, lost, 0.9, 40);
		LatencyFigures uncontended = new LatencyFigures(List.of(pairMicros, pairMicros, pairMicros, pairMicros,
				pairMicros), pairMicros, 500);
		return new LinkResults(delay, Results.of(Map.of(Library.LOCKSMITH, new Curve<>(new TreeMap<>(Map.of(3, contended))))),
				Results.of(Map.of(Library.LOCKSMITH, uncontended)));
	}

}
