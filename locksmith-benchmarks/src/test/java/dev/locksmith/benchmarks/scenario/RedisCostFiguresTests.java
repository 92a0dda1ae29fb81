package dev.locksmith.benchmarks.scenario;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class RedisCostFiguresTests {

	private static final String INFO = """
			# Commandstats
			cmdstat_set:calls=1000,usec=740,usec_per_call=0.74,rejected_calls=0,failed_calls=0
			cmdstat_evalsha:calls=1000,usec=4000,usec_per_call=4.00,rejected_calls=0,failed_calls=0
			cmdstat_get:calls=1000,usec=290,usec_per_call=0.29,rejected_calls=0,failed_calls=0
			cmdstat_del:calls=1000,usec=250,usec_per_call=0.25,rejected_calls=0,failed_calls=0
			""";

	@Test
	void parsesCallsAndMicrosOfEveryCommand() {
		assertThat(CommandStat.parse(INFO)).containsEntry("set", new CommandStat(1000, 740))
			.containsEntry("evalsha", new CommandStat(1000, 4000))
			.hasSize(4);
	}

	@Test
	void aPairCostsTheCommandsTheClientSentAndNotTheCommandsItsScriptsRanAgain() {
		RedisCostFigures figures = RedisCostFigures.of(CommandStat.parse(INFO), Set.of("set", "evalsha"), 1000, 0.028);
		assertThat(figures.microsPerPair()).isCloseTo(4.74, within(1e-9));
		assertThat(figures.cpuMicrosPerPair()).isCloseTo(28, within(1e-9));
		assertThat(figures.roundTripsPerPair()).isEqualTo(2);
		assertThat(figures.commands()).containsEntry("get", new RedisCostFigures.CommandCost(1, 0.29, false));
	}

	@Test
	void aCurveKeepsItsPointsInOrderOfSize() {
		Curve<Double> curve = new Curve<>(new TreeMap<>(Map.of(8, 2.0, 1, 1.0)));
		assertThat(curve.points().keySet()).containsExactly(1, 8);
		assertThat(curve.at(8)).contains(2.0);
		assertThat(curve.at(4)).isEmpty();
	}

}
