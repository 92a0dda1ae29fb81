package dev.locksmith.benchmarks.report;

import dev.locksmith.benchmarks.scenario.ContentionFigures;
import dev.locksmith.benchmarks.scenario.Curve;
import dev.locksmith.benchmarks.scenario.FootprintFigures;
import dev.locksmith.benchmarks.scenario.LatencyFigures;
import dev.locksmith.benchmarks.scenario.ReadMostlyAndPermits;
import dev.locksmith.benchmarks.scenario.RedisCostFigures;
import dev.locksmith.benchmarks.scenario.RenewalFigures;
import dev.locksmith.benchmarks.scenario.ScenarioResults;

/**
 * Everything one run measured, scenario by scenario.
 *
 * @param uncontended latency percentiles of one thread on a free key
 * @param redisCost Redis's time per uncontended pair
 * @param threads throughput by thread count, each thread on its own key
 * @param jvms throughput, fairness and waits by JVM count, on one key
 * @param footprint memory per held lock and per waiter
 * @param renewal renewal load by number of held locks
 * @param shared read/write locks and permits across worker JVMs
 */
public record BenchmarkResults(ScenarioResults<LatencyFigures> uncontended,
		ScenarioResults<RedisCostFigures> redisCost, ScenarioResults<Curve<Double>> threads,
		ScenarioResults<Curve<ContentionFigures>> jvms, ScenarioResults<FootprintFigures> footprint,
		ScenarioResults<Curve<RenewalFigures>> renewal, ScenarioResults<ReadMostlyAndPermits.Figures> shared) {

}
