package dev.locksmith.core;

import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** A held lock's times are monotonic readings, shown on the wall clock as far from now as the monotonic clock counts. */
class WallClockTests {

	@Test
	void aReadingOfNowIsShownAsNow() {
		Instant before = Instant.now();
		Instant shown = WallClock.instantOf(System.nanoTime());
		Instant after = Instant.now();
		// a wide margin: a machine that stalls this thread between two readings of the clocks is not at fault
		assertThat(shown).isBetween(before.minusMillis(250), after.plusMillis(250));
	}

	@Test
	void aReadingIsShownAsFarFromNowAsTheMonotonicClockCounts() {
		long now = System.nanoTime();
		Duration ahead = Duration.ofMinutes(5);
		assertThat(Duration.between(WallClock.instantOf(now), WallClock.instantOf(now + ahead.toNanos())))
			.isBetween(ahead.minusMillis(250), ahead.plusMillis(250));
	}

}
