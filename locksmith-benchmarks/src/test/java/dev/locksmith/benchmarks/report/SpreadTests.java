package dev.locksmith.benchmarks.report;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SpreadTests {

	@Test
	void anOddCountHasItsMiddleValueAsMedian() {
		assertThat(Spread.of(List.of(3.0, 1.0, 2.0))).contains(new Spread(2.0, 1.0, 3.0, 3));
	}

	@Test
	void anEvenCountHasTheMeanOfItsTwoMiddleValuesAsMedian() {
		assertThat(Spread.of(List.of(4.0, 1.0, 2.0, 10.0))).contains(new Spread(3.0, 1.0, 10.0, 4));
	}

	@Test
	void noValueHasNoSpread() {
		assertThat(Spread.of(List.of())).isEmpty();
	}

	@Test
	void theMedianComesFirstAndTheRangeInBrackets() {
		assertThat(new Spread(1.234, 0.5, 2, 3).format("%.2f×")).isEqualTo("1.23× [0.50×–2.00×]");
	}

}
