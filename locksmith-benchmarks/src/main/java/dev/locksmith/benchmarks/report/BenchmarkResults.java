package dev.locksmith.benchmarks.report;

import dev.locksmith.benchmarks.scenario.ContentionFigures;
import dev.locksmith.benchmarks.scenario.LatencyFigures;
import dev.locksmith.benchmarks.scenario.RenewalFigures;
import dev.locksmith.benchmarks.scenario.ScenarioResults;
import dev.locksmith.benchmarks.scenario.ThroughputFigures;

/**
 * Everything one run measured, scenario by scenario.
 *
 * @param uncontended scenario a
 * @param distinctKeys scenario b
 * @param contention scenario c
 * @param renewal scenario d
 */
public record BenchmarkResults(ScenarioResults<LatencyFigures> uncontended,
		ScenarioResults<ThroughputFigures> distinctKeys, ScenarioResults<ContentionFigures> contention,
		ScenarioResults<RenewalFigures> renewal) {

}
