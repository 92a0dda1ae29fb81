package dev.locksmith.core;

import java.time.Instant;
import java.util.concurrent.TimeUnit;

/**
 * Places readings of the monotonic clock ({@link System#nanoTime()}) on the wall clock, for people: a held
 * lock keeps its times as monotonic readings rather than as {@link Instant} objects of its own. The two
 * clocks are paired afresh at most a second before each use, so the time between a reading and now is
 * always what the monotonic clock counted, and a step of the wall clock moves the instants shown with it.
 */
final class WallClock {

	private static final long PAIRING_LIFETIME_NANOS = TimeUnit.SECONDS.toNanos(1);

	private static volatile Pairing pairing = Pairing.now();

	private WallClock() {
	}

	/** The instant on the wall clock of the monotonic reading {@code nanoTime}. */
	static Instant instantOf(long nanoTime) {
		Pairing current = pairing;
		if (System.nanoTime() - current.nanoTime() > PAIRING_LIFETIME_NANOS) {
			current = Pairing.now();
			pairing = current;
		}
		return current.instant().plusNanos(nanoTime - current.nanoTime());
	}

	/** A reading of each clock, taken together: the wall clock's between two of the monotonic clock's. */
	private record Pairing(Instant instant, long nanoTime) {

		static Pairing now() {
			long before = System.nanoTime();
			Instant instant = Instant.now();
			long after = System.nanoTime();
			return new Pairing(instant, before + (after - before) / 2);
		}

	}

}
