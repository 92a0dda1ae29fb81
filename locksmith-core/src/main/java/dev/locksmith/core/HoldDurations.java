package dev.locksmith.core;

import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.jspecify.annotations.Nullable;

/**
 * How long this process's recent holds of each named lock lasted in the store, from the grant to the
 * release (or the end of the minimum hold): the hint a busy caller gets for when to retry is the longest
 * of them when that is shorter than the busy lease's remaining time. A renewed lock's lease is always
 * nearly a whole ttl ahead, however soon its work ends; the holds seen so far say better when it frees.
 */
final class HoldDurations {

	/** How many of the latest holds of a name count. */
	static final int RECENT = 8;

	/** Most names remembered; beyond them, busy callers get the remaining lease as their hint. */
	static final int MAX_NAMES = 1024;

	private final Map<String, Recent> byName = new ConcurrentHashMap<>();

	/** Records that a hold of the lock named {@code name} lasted {@code held}; unnamed locks are not counted. */
	void ended(@Nullable String name, Duration held) {
		if (name == null) {
			return;
		}
		Recent recent = this.byName.get(name);
		if (recent == null) {
			if (this.byName.size() >= MAX_NAMES) {
				return;
			}
			recent = this.byName.computeIfAbsent(name, (key) -> new Recent());
		}
		recent.add(held.toNanos());
	}

	/**
	 * When a caller refused on the lock named {@code name} may retry with a chance: the longest recent hold
	 * of that name, at most {@code remainingLease}, the time the store says the busy lease has left. Zero,
	 * unknown, when the store gave no remaining lease.
	 */
	Duration retryAfter(@Nullable String name, Duration remainingLease) {
		if (remainingLease.isZero() || remainingLease.isNegative() || name == null) {
			return remainingLease;
		}
		Recent recent = this.byName.get(name);
		long longest = (recent != null) ? recent.longestNanos() : -1;
		if (longest < 0 || longest >= remainingLease.toNanos()) {
			return remainingLease;
		}
		// at least a millisecond: zero would say "no hint"
		return Duration.ofNanos(Math.max(longest, 1_000_000));
	}

	/** The latest {@value #RECENT} hold durations of one name, in nanoseconds; -1 where none was recorded yet. */
	private static final class Recent {

		private final long[] nanos = new long[RECENT];

		private int next;

		Recent() {
			Arrays.fill(this.nanos, -1);
		}

		synchronized void add(long held) {
			this.nanos[this.next] = held;
			this.next = (this.next + 1) % RECENT;
		}

		synchronized long longestNanos() {
			return Arrays.stream(this.nanos).max().orElse(-1);
		}

	}

}
