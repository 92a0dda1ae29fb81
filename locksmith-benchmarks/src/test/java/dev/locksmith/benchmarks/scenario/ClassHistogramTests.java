package dev.locksmith.benchmarks.scenario;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ClassHistogramTests {

	@Test
	void whatEachThingKeptCostsIsReadFromTwoHistogramsOfThisJvm() {
		List<Kept> kept = new ArrayList<>();
		ClassHistogram before = ClassHistogram.take();
		for (int i = 0; i < 10_000; i++) {
			kept.add(new Kept(i));
		}
		ClassHistogram after = ClassHistogram.take();
		ClassHistogram.PerUnit perKept = before.perUnit(after, kept.size())
			.stream()
			.filter((row) -> row.className().equals(Kept.class.getName()))
			.findFirst()
			.orElseThrow();
		assertThat(perKept.instances()).isEqualTo(1.0);
		assertThat(perKept.bytes()).isBetween(16.0, 32.0);
		assertThat(kept).hasSize(10_000);
	}

	private record Kept(long value) {
	}

}
