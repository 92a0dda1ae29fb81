package dev.locksmith.benchmarks.scenario;

import java.util.Map;
import java.util.Optional;

import dev.locksmith.benchmarks.lock.BenchLock;
import dev.locksmith.benchmarks.lock.Library;
import dev.locksmith.testing.RedisServer;

/**
 * Runs a scenario for each library in turn on a flushed Redis, printing progress and keeping a
 * library's failure from stopping the others.
 */
public final class ScenarioRunner {

	private final RedisServer redis;

	private final Map<Library, BenchLock> locks;

	public ScenarioRunner(RedisServer redis, Map<Library, BenchLock> locks) {
		this.redis = redis;
		this.locks = locks;
	}

	/** Measures every library with {@code scenario}. */
	public <R> ScenarioResults<R> run(Scenario<R> scenario) {
		System.out.println("== " + scenario.title());
		ScenarioResults<R> results = new ScenarioResults<>(scenario.title());
		this.locks.forEach((library, lock) -> {
			this.redis.command("FLUSHALL");
			try {
				Optional<R> figures = scenario.measure(library, lock);
				figures.ifPresent((measured) -> results.record(library, measured));
				System.out.printf("   %-30s %s%n", library.label(), figures.map(Object::toString).orElse("n/a"));
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException("Interrupted during " + scenario.title(), ex);
			}
			catch (Exception ex) {
				results.fail(library, String.valueOf(ex));
				System.out.printf("   %-30s FAILED: %s%n", library.label(), ex);
			}
		});
		return results;
	}

}
