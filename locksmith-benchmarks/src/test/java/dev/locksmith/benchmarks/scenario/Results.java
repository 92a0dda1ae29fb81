package dev.locksmith.benchmarks.scenario;

import java.util.Map;

import dev.locksmith.benchmarks.lock.Library;

/** Builds scenario results from figures, for tests of the report. */
public final class Results {

	private Results() {
	}

	/** Results titled "test" in which each library of {@code figures} measured its figures. */
	public static <R> ScenarioResults<R> of(Map<Library, R> figures) {
		ScenarioResults<R> results = new ScenarioResults<>("test");
		figures.forEach(results::record);
		return results;
	}

	/** Results titled "test" in which {@code library} failed for {@code reason}. */
	public static <R> ScenarioResults<R> failed(Library library, String reason) {
		ScenarioResults<R> results = new ScenarioResults<>("test");
		results.fail(library, reason);
		return results;
	}

}
