package dev.locksmith.benchmarks.scenario;

import java.util.Optional;

import dev.locksmith.benchmarks.lock.BenchLock;
import dev.locksmith.benchmarks.lock.Library;

/**
 * One benchmark scenario, measured for one library at a time on a freshly flushed Redis.
 *
 * @param <R> the figures it measures
 */
public interface Scenario<R> {

	/** The heading of the scenario in the report. */
	String title();

	/** Measures {@code library}, whose clients {@code lock} are open in this JVM; empty when the library cannot take part. */
	Optional<R> measure(Library library, BenchLock lock) throws Exception;

}
