package dev.locksmith.core;

import java.time.Instant;
import java.util.concurrent.TimeUnit;

/**
 * Wall-clock instants as nanoseconds since the epoch in a {@code long} (good until the year 2262): a
 * held lock keeps its times for people this way rather than as {@link Instant} objects of their own.
 */
final class WallClock {

	private static final long NANOS_PER_SECOND = TimeUnit.SECONDS.toNanos(1);

	private WallClock() {
	}

	/** Now, in nanoseconds since the epoch, as precise as {@link Instant#now()}. */
	static long nowEpochNanos() {
		Instant now = Instant.now();
		return now.getEpochSecond() * NANOS_PER_SECOND + now.getNano();
	}

	/** The instant {@code epochNanos} nanoseconds after the epoch. */
	static Instant instant(long epochNanos) {
		return Instant.ofEpochSecond(Math.floorDiv(epochNanos, NANOS_PER_SECOND), Math.floorMod(epochNanos, NANOS_PER_SECOND));
	}

}
