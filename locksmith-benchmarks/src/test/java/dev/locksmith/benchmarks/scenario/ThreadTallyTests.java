package dev.locksmith.benchmarks.scenario;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ThreadTallyTests {

	@Test
	void aTallyReadsBackFromTheLineAWorkerPrints() {
		ThreadTally tally = new ThreadTally(true, 12, 7, 3_500_000);
		assertThat(ThreadTally.isTally(tally.toLine())).isTrue();
		assertThat(ThreadTally.parse(tally.toLine())).isEqualTo(tally);
	}

	@Test
	void onlyMeasuredSectionsCountTowardsSectionsAndTheLongestWait() {
		ThreadTally tally = new ThreadTally(false, 0, 0, 0).plus(false, 900).plus(true, 300).plus(true, 200);
		assertThat(tally).isEqualTo(new ThreadTally(false, 3, 2, 300));
	}

}
