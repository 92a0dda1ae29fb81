package dev.locksmith.benchmarks.report;

import dev.locksmith.benchmarks.scenario.ContentionFigures;
import dev.locksmith.benchmarks.scenario.Curve;
import dev.locksmith.benchmarks.scenario.LatencyFigures;
import dev.locksmith.benchmarks.scenario.ScenarioResults;

/**
 * What one round of {@link PostgresReport}'s run measured, every library in turn.
 *
 * @param uncontended latency of one thread on a free key
 * @param distinctKeys pairs per second by thread count, each thread on a key of its own
 * @param contended throughput, fairness, waits and lost updates by JVM count, on one key
 * @param loadAtEnd the load average over 1, 5 and 15 minutes when the round ended
 */
public record PostgresRound(ScenarioResults<LatencyFigures> uncontended, ScenarioResults<Curve<Double>> distinctKeys,
		ScenarioResults<Curve<ContentionFigures>> contended, String loadAtEnd) {

}
