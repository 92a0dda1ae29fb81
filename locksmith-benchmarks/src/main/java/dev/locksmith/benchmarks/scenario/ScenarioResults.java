package dev.locksmith.benchmarks.scenario;

import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;

import dev.locksmith.benchmarks.lock.Library;

/**
 * The outcome of one scenario for every library: its figures, the reason it failed, or neither
 * when the library could not take part.
 *
 * @param <R> the figures of the scenario
 */
public final class ScenarioResults<R> {

	private final String title;

	private final Map<Library, R> figures = new EnumMap<>(Library.class);

	private final Map<Library, String> failures = new EnumMap<>(Library.class);

	ScenarioResults(String title) {
		this.title = title;
	}

	public String title() {
		return this.title;
	}

	public Optional<R> figures(Library library) {
		return Optional.ofNullable(this.figures.get(library));
	}

	public Optional<String> failure(Library library) {
		return Optional.ofNullable(this.failures.get(library));
	}

	void record(Library library, R figures) {
		this.figures.put(library, figures);
	}

	void fail(Library library, String reason) {
		this.failures.put(library, reason);
	}

}
