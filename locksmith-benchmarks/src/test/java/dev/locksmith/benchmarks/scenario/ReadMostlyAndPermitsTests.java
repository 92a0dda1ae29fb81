package dev.locksmith.benchmarks.scenario;

import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ReadMostlyAndPermitsTests {

	@Test
	void threadsAreSpreadOverTheJvmsAsEvenlyAsTheyGo() {
		assertThat(IntStream.range(0, ReadMostlyAndPermits.JVMS).map((jvm) -> ReadMostlyAndPermits.threadsOf(jvm, 8)))
			.containsExactly(3, 3, 2);
		assertThat(IntStream.range(0, ReadMostlyAndPermits.JVMS).map((jvm) -> ReadMostlyAndPermits.threadsOf(jvm, 16)))
			.containsExactly(6, 5, 5);
	}

}
