package dev.locksmith.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;

import dev.locksmith.redis.QueueScenarioRun.Outcome;

import static org.assertj.core.api.Assertions.fail;

/**
 * Runs generated {@link QueueScenario}s on a {@link ScenarioStore} with {@link QueueScenarioRun}, and on a
 * failure minimises the scenario and reports it with its seed; the property tests of each store call it.
 * <p>
 * Size a run with system properties (with Maven, {@code -Dlocksmith.pbt.tries=500} and so on):
 * <ul>
 * <li>{@code locksmith.pbt.tries}: scenarios to run; by default the test's own number, within its time
 * budget (the budget applies only to the default);</li>
 * <li>{@code locksmith.pbt.seed}: run the one scenario of this seed, as printed by a failure;</li>
 * <li>{@code locksmith.pbt.clients}: most clients per scenario, default {@value #DEFAULT_MAX_CLIENTS};</li>
 * <li>{@code locksmith.pbt.shrinkSeconds}: how long to minimise a failing scenario, default
 * {@value #DEFAULT_SHRINK_SECONDS}.</li>
 * </ul>
 * The scenario is a function of its seed; the timing of a run on threads is not, so a failure found
 * once may need a few runs of its seed to show again.
 */
final class ScenarioTries {

	static final int DEFAULT_MAX_CLIENTS = 10;

	static final int DEFAULT_SHRINK_SECONDS = 60;

	/** How many times a simpler scenario is run before it counts as passing. */
	private static final int RUNS_PER_SHRINK_CANDIDATE = 2;

	private ScenarioTries() {
	}

	/**
	 * Runs generated scenarios on {@code store}, as many as the system properties say, else
	 * {@code defaultTries} within {@code defaultBudgetSeconds}; fails with the first broken one, shrunk.
	 */
	static void run(ScenarioStore store, int defaultTries, int defaultBudgetSeconds) throws InterruptedException {
		run(store, QueueScenario::generate, defaultTries, defaultBudgetSeconds);
	}

	/**
	 * Runs scenarios that {@code generator} makes from a seeded {@link Random} and the most clients, as
	 * {@link #run(ScenarioStore, int, int)} does.
	 */
	static void run(ScenarioStore store, BiFunction<Random, Integer, QueueScenario> generator, int defaultTries,
			int defaultBudgetSeconds) throws InterruptedException {
		String fixedSeed = System.getProperty("locksmith.pbt.seed");
		String triesProperty = System.getProperty("locksmith.pbt.tries");
		int tries = (fixedSeed != null) ? 1 : (triesProperty != null) ? Integer.parseInt(triesProperty) : defaultTries;
		long budgetNanos = (fixedSeed == null && triesProperty == null)
				? TimeUnit.SECONDS.toNanos(defaultBudgetSeconds) : Long.MAX_VALUE;
		int maxClients = Integer.getInteger("locksmith.pbt.clients", DEFAULT_MAX_CLIENTS);
		long masterSeed = (fixedSeed != null) ? Long.parseLong(fixedSeed) : new Random().nextLong();
		Random seeds = new Random(masterSeed);
		long started = System.nanoTime();
		int tried = 0;
		long operations = 0;
		long calls = 0;
		long worstSecond = 0;
		double worstAverage = 0;
		for (; tried < tries && System.nanoTime() - started < budgetNanos; tried++) {
			long seed = (fixedSeed != null) ? masterSeed : seeds.nextLong();
			QueueScenario scenario = generator.apply(new Random(seed), maxClients);
			Outcome outcome = QueueScenarioRun.run(store, scenario);
			System.out.printf("pbt try %d, seed %d: %s; %s%n", tried + 1, seed,
					outcome.failed() ? "FAILED " + outcome.firstKind() : "passed", outcome.figures());
			if (outcome.failed()) {
				reportFailure(store, seed, tried + 1, scenario, outcome);
			}
			operations += outcome.operations();
			calls += outcome.scripts();
			worstSecond = Math.max(worstSecond, outcome.maxScriptsInASecond());
			worstAverage = Math.max(worstAverage, (outcome.operations() == 0) ? 0.0
					: (double) outcome.scripts() / outcome.operations());
		}
		System.out.printf("pbt: %d scenario(s) passed in %d s (first seed from master seed %d): %d lock operations,"
				+ " %d %s, %.1f per operation over all, %.1f in the worst scenario, at most %d in one second%n", tried,
				TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started), masterSeed, operations, calls,
				store.callsName(), (operations == 0) ? 0.0 : (double) calls / operations, worstAverage, worstSecond);
	}

	private static void reportFailure(ScenarioStore store, long seed, int tryNumber, QueueScenario original,
			Outcome failure) throws InterruptedException {
		String kind = failure.firstKind();
		QueueScenario shrunk = original;
		Outcome shrunkOutcome = failure;
		int steps = 0;
		int runs = 0;
		long shrinkUntil = System.nanoTime()
				+ TimeUnit.SECONDS.toNanos(Integer.getInteger("locksmith.pbt.shrinkSeconds", DEFAULT_SHRINK_SECONDS));
		boolean simpler = true;
		while (simpler && System.nanoTime() < shrinkUntil) {
			simpler = false;
			for (QueueScenario candidate : shrunk.shrinkCandidates()) {
				if (System.nanoTime() >= shrinkUntil) {
					break;
				}
				Outcome outcome = null;
				for (int run = 0; run < RUNS_PER_SHRINK_CANDIDATE && (outcome == null || !outcome.failed()); run++) {
					outcome = QueueScenarioRun.run(store, candidate);
					runs++;
				}
				if (outcome.failed() && outcome.firstKind().equals(kind)) {
					shrunk = candidate;
					shrunkOutcome = outcome;
					steps++;
					simpler = true;
					System.out.printf("pbt shrink step %d: %d clients; %s%n", steps, candidate.clients().size(),
							outcome.violations().get(0));
					break;
				}
			}
		}
		List<String> report = new ArrayList<>();
		report.add("The wait queue broke an invariant in try " + tryNumber + ", seed " + seed
				+ " (rerun with -Dlocksmith.pbt.seed=" + seed + ").");
		report.add("Generated scenario:\n" + original);
		report.add("Its violations: " + String.join("\n  ", failure.violations()));
		report.add("Its figures: " + failure.figures());
		report.add("Shrunk in " + steps + " steps (" + runs + " runs) to:\n" + shrunk);
		report.add("Violations of the shrunk scenario:\n  " + String.join("\n  ", shrunkOutcome.violations()));
		report.add("Figures of the shrunk scenario: " + shrunkOutcome.figures());
		report.add("Events of the shrunk scenario:\n  " + String.join("\n  ", shrunkOutcome.log()));
		String message = String.join("\n", report);
		System.out.println(message);
		fail(message);
	}

}
