package dev.locksmith.benchmarks.report;

import dev.locksmith.benchmarks.NetworkDelay;
import dev.locksmith.benchmarks.lock.Library;
import dev.locksmith.benchmarks.lock.Library.Store;
import dev.locksmith.benchmarks.scenario.ContentionFigures;
import dev.locksmith.benchmarks.scenario.Curve;
import dev.locksmith.benchmarks.scenario.LatencyFigures;
import dev.locksmith.benchmarks.scenario.ScenarioResults;

/**
 * What the scenarios of {@link NetworkLatencyReport} measured with one delay between the clients and Redis.
 *
 * @param delay the delay added in each direction
 * @param contended throughput, fairness, waits and lost updates by JVM count, on one key
 * @param uncontended latency of one thread on a free key
 */
public record LinkResults(NetworkDelay delay, ScenarioResults<Curve<ContentionFigures>> contended,
		ScenarioResults<LatencyFigures> uncontended) {

	/** Lost updates of every library at every JVM count. */
	public long lostUpdates() {
		long lost = 0;
		for (Library library : Library.on(Store.REDIS)) {
			lost += this.contended.figures(library)
				.map((curve) -> curve.points().values().stream().mapToLong(ContentionFigures::lostUpdates).sum())
				.orElse(0L);
		}
		return lost;
	}

}
