package dev.locksmith.core;

import java.time.Instant;
import java.util.concurrent.TimeUnit;

/**
 * Wall-clock instants as microseconds since the epoch in a {@code long}, as precise as the system clock
 * and far beyond the longest lease a {@link java.time.Duration} can count in nanoseconds: a held lock keeps
 * its times for people this way rather than as {@link Instant} objects of their own.
 */
final class WallClock {

	private static final long MICROS_PER_SECOND = TimeUnit.SECONDS.toMicros(1);

	private WallClock() {
	}

	/** Now, in microseconds since the epoch. */
	static long nowEpochMicros() {
		Instant now = Instant.now();
		return now.getEpochSecond() * MICROS_PER_SECOND + TimeUnit.NANOSECONDS.toMicros(now.getNano());
	}

	/** The instant {@code epochMicros} microseconds after the epoch. */
	static Instant instant(long epochMicros) {
		return Instant.ofEpochSecond(Math.floorDiv(epochMicros, MICROS_PER_SECOND),
				TimeUnit.MICROSECONDS.toNanos(Math.floorMod(epochMicros, MICROS_PER_SECOND)));
	}

}
