package dev.locksmith.redis;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.locksmith.testing.RedisVersion;

/**
 * Writes the fault suite's figures to {@code target/reliability.md}, and to {@code docs/reliability.md}
 * at the project root when the system property {@code reliability.publish} is {@code true}.
 */
final class ReliabilityReport {

	private static final String SECTION_START = "<!-- section ";

	private static final Pattern REDIS_VERSION = Pattern.compile("redis_version:(\\S+)");

	private ReliabilityReport() {
	}

	/**
	 * Writes the fault suite's page, its table on the bundled Redis first, or, for {@code version}
	 * {@link RedisVersion#SYSTEM} or {@link RedisVersion#VALKEY}, its table on that server as a section of the page.
	 */
	static void write(RedisVersion version, List<Outcome> outcomes, Map<String, Long> totals, String redisInfo)
			throws IOException {
		String table = table(outcomes, totals, "Redis " + redisVersion(redisInfo));
		if (version == RedisVersion.SYSTEM) {
			writeSection("faults-system-redis", "## The same faults on the system's Redis\n\nThe fault suite runs on"
					+ " every tested server; this table is its run on the system's `redis-server`.\n\n" + table);
			return;
		}
		if (version == RedisVersion.VALKEY) {
			writeSection("faults-valkey", "## The same faults on Valkey\n\nThis table is the fault suite's run on"
					+ " Valkey " + version.version() + ".\n\n" + table);
			return;
		}
		StringBuilder report = new StringBuilder("""
				# How it is tested

				The guide says what Locksmith does and what it guarantees; this page shows how that is proven:
				first the fault suites' measurements, then, page by page, [each guarantee and the test that
				proves it](#each-guarantee-and-the-test-that-proves-it).

				## Reliability under faults

				Written by `FaultSuiteTests`, which `./mvnw verify` runs on each tested Redis version (the bundled
				6.2 here, the system's 7.x in a section below); this page is refreshed with
				`./mvnw -pl lock-spring-boot-autoconfigure -am verify -Dtest=FaultSuiteTests -Dsurefire.failIfNoSpecifiedTests=false -Dreliability.publish=true`.

				Three worker JVMs, two threads each, lock one of three accounts at random and do a fenced
				read-modify-write of its counter: the read and the write both carry the lock's fencing token, and
				the counter refuses a token lower than the highest it has seen. Leases are 2 s with renewal, every
				Redis call is bounded by 500 ms, and a busy lock is waited for up to 1 s. A checker on a second
				Redis, never faulted, counts entries into critical sections, overlaps (a worker entering while
				another is inside) and lost updates (the counters' sum against the accepted writes). The faults hit
				the lock store one after the other; each row covers the fault, the time until the next accepted
				write (recovery), and 20 accepted writes after it. A frozen store stays frozen, and a killed one
				down, for 3 s (past the 2 s lease); the frozen worker is frozen between its read and its write
				until its lease ended in Redis; memory stays full until 20 lock calls failed closed.

				""");
		report.append(table);
		report.append("""

				Overlaps are expected only where the model allows them: after the store lost its data, or a
				holder (or the store) was frozen past the lease. Lost updates must be 0 in every row: a holder
				that lost its lock is stopped by the fencing token, whatever the lock store did. The kernels this
				suite runs on in CI have no `tc netem`: network faults go through a proxy in the test code, in the
				section below.
				""");
		Files.writeString(Path.of("target/reliability.md"), report);
		if (Boolean.getBoolean("reliability.publish")) {
			Path published = projectRoot().resolve("docs/reliability.md");
			String sections = "";
			if (Files.exists(published)) {
				String old = Files.readString(published);
				int first = old.indexOf(SECTION_START);
				sections = (first < 0) ? "" : "\n" + old.substring(first);
			}
			Files.writeString(published, report + sections);
		}
	}

	/** The run's line, on {@code server}, and its table of faults, with the whole run's totals in its last row. */
	static String table(List<Outcome> outcomes, Map<String, Long> totals, String server) {
		StringBuilder table = new StringBuilder();
		table.append("Run of ").append(LocalDate.now()).append(" on ").append(Runtime.getRuntime().availableProcessors())
			.append(" cores, ").append(server).append(".\n\n");
		table.append("| fault | critical sections | overlaps (allowed by the model?) | stale reads and writes rejected"
				+ " | lost updates | lock calls that failed closed | recovery |\n|---|---|---|---|---|---|---|\n");
		for (Outcome outcome : outcomes) {
			table.append(row(outcome)).append('\n');
		}
		table.append("| **whole run** | ").append(totals.getOrDefault("sections", 0L)).append(" | ")
			.append(totals.getOrDefault("overlaps", 0L)).append(" | ").append(totals.getOrDefault("rejected", 0L))
			.append(" | ").append(totals.get("accepted") - totals.get("sum")).append(" | ")
			.append(totals.getOrDefault("unavailable", 0L)).append(" | |\n");
		return table.toString();
	}

	/**
	 * Writes another suite's section, {@code markdown}, to {@code target/reliability-<id>.md}, and, when
	 * {@code reliability.publish} is {@code true}, in place of its earlier version in
	 * {@code docs/reliability.md} (after the table of {@link #write}, which keeps the sections).
	 */
	static void writeSection(String id, String markdown) throws IOException {
		Files.writeString(Path.of("target/reliability-" + id + ".md"), markdown);
		if (!Boolean.getBoolean("reliability.publish")) {
			return;
		}
		Path published = projectRoot().resolve("docs/reliability.md");
		String old = Files.readString(published);
		String start = SECTION_START + id + " -->\n";
		String end = "<!-- end of section " + id + " -->\n";
		String section = start + markdown + (markdown.endsWith("\n") ? "" : "\n") + end;
		int from = old.indexOf(start);
		int to = old.indexOf(end);
		String updated = (from >= 0 && to > from) ? old.substring(0, from) + section + old.substring(to + end.length())
				: old + (old.endsWith("\n") ? "\n" : "\n\n") + section;
		Files.writeString(published, updated);
	}

	/** A row of the fault table: fault, sections, overlaps, rejected, lost updates, failed closed, recovery. */
	static String row(Outcome outcome) {
		return "| " + outcome.fault() + " | " + outcome.sections() + " | " + outcome.overlaps()
				+ (outcome.overlapsAllowed() ? " (yes)" : " (no)") + " | " + outcome.rejected() + " | "
				+ outcome.lostUpdates() + " | " + outcome.unavailable() + " | " + outcome.recovery().toMillis() + " ms |";
	}

	static String redisVersion(String info) {
		Matcher matcher = REDIS_VERSION.matcher(info);
		return matcher.find() ? matcher.group(1) : "(unknown version)";
	}

	private static Path projectRoot() {
		Path dir = Path.of("").toAbsolutePath();
		while (!Files.exists(dir.resolve("mvnw"))) {
			dir = dir.getParent();
		}
		return dir;
	}

	/**
	 * The figures of one fault; {@code lostLeasesSeen} counts stale holders that knew, before their
	 * late write, that their lease was lost, and {@code elapsed} is how long the row ran.
	 */
	record Outcome(String fault, boolean overlapsAllowed, long sections, long overlaps, long rejected, long lostUpdates,
			long unavailable, Duration recovery, long lostLeasesSeen, long accepted, Duration elapsed) {

		static Outcome between(String fault, boolean overlapsAllowed, Map<String, Long> before, Map<String, Long> after,
				Duration recovery) {
			return between(fault, overlapsAllowed, before, after, recovery, Duration.ZERO);
		}

		static Outcome between(String fault, boolean overlapsAllowed, Map<String, Long> before, Map<String, Long> after,
				Duration recovery, Duration elapsed) {
			return new Outcome(fault, overlapsAllowed, delta("sections", before, after),
					delta("overlaps", before, after), delta("rejected", before, after),
					delta("accepted", before, after) - delta("sum", before, after), delta("unavailable", before, after),
					recovery, delta("lost-leases-seen", before, after), delta("accepted", before, after), elapsed);
		}

		/** Accepted writes per second over the row. */
		double writesPerSecond() {
			return this.accepted * 1e9 / Math.max(1, this.elapsed.toNanos());
		}

		private static long delta(String counter, Map<String, Long> before, Map<String, Long> after) {
			return after.getOrDefault(counter, 0L) - before.getOrDefault(counter, 0L);
		}

	}

}
