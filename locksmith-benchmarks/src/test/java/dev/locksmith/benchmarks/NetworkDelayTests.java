package dev.locksmith.benchmarks;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class NetworkDelayTests {

	@Test
	void aDelayReadsWithPlusMinusOrItsAsciiSpelling() {
		NetworkDelay expected = new NetworkDelay(Duration.ofMillis(20), Duration.ofMillis(10));
		assertThat(NetworkDelay.parse("20ms±10ms")).isEqualTo(expected);
		assertThat(NetworkDelay.parse("20ms+-10ms")).isEqualTo(expected);
		assertThat(NetworkDelay.parse(" 20ms ± 10ms ")).isEqualTo(expected);
		assertThat(expected).hasToString("20 ms ± 10 ms");
	}

	@Test
	void aDataCentreHopReadsAndPrintsInFractionsOfAMillisecond() {
		assertThat(NetworkDelay.parse("250us+-50us")).isEqualTo(new NetworkDelay(Duration.ofNanos(250_000), Duration.ofNanos(50_000)))
			.hasToString("0.25 ms ± 0.05 ms");
	}

	@Test
	void theJitterIsOptional() {
		assertThat(NetworkDelay.parse("5ms")).isEqualTo(new NetworkDelay(Duration.ofMillis(5), Duration.ZERO))
			.hasToString("5 ms");
		assertThat(NetworkDelay.parse("0ms")).isEqualTo(NetworkDelay.NONE).hasToString("none");
	}

	@Test
	void aBlankPropertyGivesTheMainsOwnDelayAsThePomPassesNoneByDefault() {
		String before = System.getProperty("bench.latency");
		try {
			System.setProperty("bench.latency", "");
			assertThat(NetworkDelay.fromProperty("0ms")).isEqualTo(NetworkDelay.NONE);
			System.setProperty("bench.latency", "250us+-50us");
			assertThat(NetworkDelay.fromProperty("0ms")).hasToString("0.25 ms ± 0.05 ms");
			System.clearProperty("bench.latency");
			assertThat(NetworkDelay.fromProperty("20ms±10ms")).hasToString("20 ms ± 10 ms");
		}
		finally {
			if (before == null) {
				System.clearProperty("bench.latency");
			}
			else {
				System.setProperty("bench.latency", before);
			}
		}
	}

	@Test
	void aJitterLargerThanTheDelayOrATextThatIsNoDelayIsRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> NetworkDelay.parse("10ms±20ms"))
			.withMessage("A delay needs 0 <= jitter <= fixed, not 10 ms ± 20 ms");
		assertThatIllegalArgumentException().isThrownBy(() -> NetworkDelay.parse("20ms±10ms±5ms"))
			.withMessage("Expected a delay such as 20ms±10ms, not '20ms±10ms±5ms'");
		assertThatIllegalArgumentException().isThrownBy(() -> NetworkDelay.parse("twenty"));
	}

}
