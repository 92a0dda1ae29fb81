package dev.locksmith.benchmarks.report;

import java.util.TreeMap;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class LinearFitTests {

	@Test
	void aCostPaidOnceFallsIntoTheInterceptNotTheSlope() {
		TreeMap<Integer, Double> bytes = new TreeMap<>();
		bytes.put(1000, 50_000 + 1000 * 120.0);
		bytes.put(2000, 50_000 + 2000 * 120.0);
		bytes.put(5000, 50_000 + 5000 * 120.0);
		assertThat(LinearFit.slope(bytes)).hasValueSatisfying((slope) -> assertThat(slope).isCloseTo(120, within(1e-9)));
	}

	@Test
	void onePointGivesItsYOverItsX() {
		TreeMap<Integer, Double> bytes = new TreeMap<>();
		bytes.put(100, 5000.0);
		assertThat(LinearFit.slope(bytes)).contains(50.0);
	}

	@Test
	void noPointsGiveNoSlope() {
		assertThat(LinearFit.slope(new TreeMap<>())).isEmpty();
	}

}
