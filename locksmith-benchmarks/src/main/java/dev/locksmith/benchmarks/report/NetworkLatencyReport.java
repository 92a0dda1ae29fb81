package dev.locksmith.benchmarks.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;

import dev.locksmith.benchmarks.BenchSettings;
import dev.locksmith.benchmarks.lock.Library;
import dev.locksmith.benchmarks.lock.Library.Store;
import dev.locksmith.benchmarks.scenario.ContentionFigures;
import dev.locksmith.benchmarks.scenario.LatencyFigures;
import dev.locksmith.benchmarks.scenario.ScenarioResults;

/**
 * Writes the section of {@code docs/benchmarks.md} that compares each library without and with a
 * delay between every client and Redis, which the full run keeps (see {@link MarkdownReport#write}).
 */
public final class NetworkLatencyReport {

	/** The id of the section in the report. */
	public static final String SECTION = "network-latency";

	private final StringBuilder text = new StringBuilder();

	private NetworkLatencyReport() {
	}

	/**
	 * Writes the section in place of its earlier version in {@code file}, or at its end;
	 * {@code links} are the runs, the first without delay.
	 */
	public static void write(Path file, List<LinkResults> links, MachineInfo machine, String loadAtEnd,
			BenchSettings settings, String command) throws IOException {
		NetworkLatencyReport report = new NetworkLatencyReport();
		report.header(links.get(links.size() - 1), machine, loadAtEnd, settings, command);
		report.contended(links);
		report.uncontended(links, settings);
		String old = Files.exists(file) ? Files.readString(file) : "";
		Files.writeString(file, KeptSections.replace(old, SECTION, report.text.toString()));
	}

	private void header(LinkResults delayed, MachineInfo machine, String loadAtEnd, BenchSettings settings,
			String command) {
		line("## Through " + delayed.delay() + " of network latency");
		line("");
		line("Written by a run of its own, which measures only the two scenarios below and the libraries named in");
		line("the command; the full run keeps this section:");
		line("");
		line("```shell");
		line(command);
		line("```");
		line("");
		line("Run of " + machine.date() + " on " + machine.cores() + " cores, Redis " + machine.redis()
				+ "; load average (1, 5, 15 min) at the start " + machine.loadAtStart() + ", at the end " + loadAtEnd
				+ "; warm-up %d ms and until the worker JVMs' JIT compilers settle, measurement %d ms, %d threads in each worker JVM."
					.formatted(settings.warmup().toMillis(), settings.measure().toMillis(), settings.threadsPerJvm()));
		line("");
		line("Every client, in this JVM and in the worker JVMs, reaches Redis through a `FaultyProxy`");
		line("(`locksmith-embedded-redis`): the libraries' connections, their pub/sub subscribers and the plain");
		line("connection of the read-modify-write section. The proxy holds each chunk of bytes, in each direction,");
		line("for the delay plus a uniform jitter, and never reorders them. The rows without delay go through the");
		line("same proxy, so the two rows of a library differ by the delay alone. Under load the figures are lower");
		line("and noisier; the delay dominates them once it is there.");
		line("");
	}

	private void contended(List<LinkResults> links) {
		line("**" + links.get(0).contended().title() + "**");
		line("");
		line("| library | delay each way | JVMs | sections/s | per-thread min/max | max wait ms | lost updates |");
		line("| --- | --- | ---: | ---: | ---: | ---: | ---: |");
		rows(links, LinkResults::contended, (link, curve) -> curve.points()
			.entrySet()
			.stream()
			.map((point) -> contendedCells(point.getKey(), point.getValue()))
			.toList());
		line("");
		line("The section is `GET` then `SET` of a counter; a lost update is a section whose increment the counter");
		line("lacks, which only two holders at once make. *Per-thread min/max* is the fewest sections of one");
		line("thread over the most of one thread; *max wait* is the longest time one thread waited for the lock.");
		line("");
	}

	private static String contendedCells(int jvms, ContentionFigures f) {
		return "%d | %,.1f | %.2f | %.1f | %d of %,d".formatted(jvms, f.sectionsPerSecond(), f.fairness(),
				f.maxWaitMillis(), f.lostUpdates(), f.sections());
	}

	private void uncontended(List<LinkResults> links, BenchSettings settings) {
		double seconds = settings.measure().toNanos() / 1e9;
		line("**" + links.get(0).uncontended().title() + "**");
		line("");
		line("| library | delay each way | pairs/s | p50 ms | p99 ms | max ms | samples |");
		line("| --- | --- | ---: | ---: | ---: | ---: | ---: |");
		rows(links, LinkResults::uncontended, (link, f) -> List.of("%,.1f | %.2f | %.2f | %.2f | %,d".formatted(
				f.samples() / seconds, f.p50Micros() / 1000, f.p99Micros() / 1000, f.maxMicros() / 1000, f.samples())));
		line("");
	}

	/** One row per library, link and line of cells that {@code cells} makes of the library's figures. */
	private <R> void rows(List<LinkResults> links, Function<LinkResults, ScenarioResults<R>> scenario,
			BiFunction<LinkResults, R, List<String>> cells) {
		for (Library library : Library.on(Store.REDIS)) {
			for (LinkResults link : links) {
				ScenarioResults<R> results = scenario.apply(link);
				List<String> lines = results.figures(library)
					.map((figures) -> cells.apply(link, figures))
					.or(() -> results.failure(library).map((reason) -> List.of("failed: " + reason.replace("|", "\\|"))))
					.orElse(List.of());
				lines.forEach((cell) -> line("| " + library.label() + " | " + link.delay() + " | " + cell + " |"));
			}
		}
	}

	private void line(String line) {
		this.text.append(line).append('\n');
	}

}
