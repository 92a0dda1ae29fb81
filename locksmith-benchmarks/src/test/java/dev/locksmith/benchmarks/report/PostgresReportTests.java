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
import dev.locksmith.benchmarks.lock.Library;
import dev.locksmith.benchmarks.scenario.ContentionFigures;
import dev.locksmith.benchmarks.scenario.Curve;
import dev.locksmith.benchmarks.scenario.LatencyFigures;
import dev.locksmith.benchmarks.scenario.Results;

import static org.assertj.core.api.Assertions.assertThat;

class PostgresReportTests {

	private static final BenchSettings SETTINGS = new BenchSettings(Duration.ofSeconds(1), Duration.ofSeconds(10),
			Duration.ofSeconds(1), List.of(8), List.of(3), 2, List.of(10), List.of(10), List.of(10),
			EnumSet.of(Library.SHEDLOCK_JDBC, Library.LOCKSMITH_JDBC));

	private static final MachineInfo MACHINE = new MachineInfo("cpu", 2, "jdk", "os", "7.0.15", "2026-12-07 15:30 UTC",
			"1.00, 2.00, 3.00");

	private static final List<Library> LIBRARIES = List.of(Library.SHEDLOCK_JDBC, Library.LOCKSMITH_JDBC);

	@Test
	void eachFigureAndRatioIsTheMedianOfTheRoundsWithTheirRange(@TempDir Path dir) throws Exception {
		Path file = dir.resolve("benchmarks.md");
		Files.writeString(file, "# Benchmarks\n\n");
		List<PostgresRound> rounds = List.of(round(100, 200, 1000, 2000, 0, "4.00, 4.00, 4.00"),
				round(100, 300, 1000, 1000, 0, "5.00, 5.00, 5.00"), round(300, 300, 2000, 1500, 2, "6.00, 6.00, 6.00"));

		PostgresReport.write(file, rounds, LIBRARIES, MACHINE, "14.22", SETTINGS, "command");

		assertThat(Files.readString(file)).startsWith("# Benchmarks\n\n<!-- section postgresql -->\n")
			.contains("at the start 1.00, 2.00, 3.00; at the end of each round 4.00, 4.00, 4.00; 5.00, 5.00, 5.00; "
					+ "6.00, 6.00, 6.00.")
			.contains("| ShedLock JdbcTemplateLockProvider | 100.0 [100.0–300.0] | 100.0 [100.0–300.0] | 100 [100–100] |")
			.contains("| Locksmith LockService (jdbc) | 300.0 [200.0–300.0] |")
			.contains("| ShedLock JdbcTemplateLockProvider | 1,000 [1,000–2,000] | 0.90 [0.90–0.90] | 40.0 [40.0–40.0] "
					+ "| 2 of 3,000 |")
			.contains("| Locksmith LockService (jdbc) | 1,500 [1,000–2,000] | 0.90 [0.90–0.90] | 40.0 [40.0–40.0] "
					+ "| 0 of 3,000 |")
			.contains("| ShedLock JdbcTemplateLockProvider | 2.00× [1.00×–3.00×] | 1.00× [1.00×–1.00×] "
					+ "| 1.00× [0.75×–2.00×] | 1.00× [1.00×–1.00×] |")
			.endsWith("<!-- end of section postgresql -->\n");
	}

	@Test
	void aLibraryThatFailedEveryRoundShowsWhy(@TempDir Path dir) throws Exception {
		Path file = dir.resolve("benchmarks.md");
		PostgresRound round = new PostgresRound(Results.failed(Library.LOCKSMITH_JDBC, "no | table"),
				Results.of(Map.of()), Results.of(Map.of()), "1.00, 1.00, 1.00");

		PostgresReport.write(file, List.of(round), LIBRARIES, MACHINE, "14.22", SETTINGS, "command");

		assertThat(Files.readString(file)).contains("| Locksmith LockService (jdbc) | failed: no \\| table |  |  |")
			.contains("| ShedLock JdbcTemplateLockProvider | n/a |  |  |");
	}

	private static PostgresRound round(double shedLockMicros, double locksmithMicros, double shedLockSections,
			double locksmithSections, long shedLockLost, String load) {
		return new PostgresRound(
				Results.of(Map.of(Library.SHEDLOCK_JDBC, latency(shedLockMicros), Library.LOCKSMITH_JDBC,
						latency(locksmithMicros))),
				Results.of(Map.of(Library.SHEDLOCK_JDBC, new Curve<>(new TreeMap<>(Map.of(8, 500.0))),
						Library.LOCKSMITH_JDBC, new Curve<>(new TreeMap<>(Map.of(8, 500.0))))),
				Results.of(Map.of(Library.SHEDLOCK_JDBC, contention(shedLockSections, shedLockLost),
						Library.LOCKSMITH_JDBC, contention(locksmithSections, 0))),
				load);
	}

	private static LatencyFigures latency(double micros) {
		return new LatencyFigures(List.of(micros, micros, micros, micros, micros), micros, 1000);
	}

	private static Curve<ContentionFigures> contention(double sectionsPerSecond, long lost) {
		return new Curve<>(new TreeMap<>(Map.of(3, new ContentionFigures(sectionsPerSecond, 1000, lost, 0.9, 40))));
	}

}
