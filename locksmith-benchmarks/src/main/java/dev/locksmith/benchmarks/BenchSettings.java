package dev.locksmith.benchmarks;

import java.time.Duration;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Collectors;

import org.springframework.boot.convert.DurationStyle;

import dev.locksmith.benchmarks.lock.Library;

/**
 * Durations and sizes of a run, from system properties ({@code -Dbench.measure=1s}) so that a quick
 * smoke run needs no code change.
 *
 * @param warmup how long each library runs before a measurement starts
 * @param measure how long each measurement lasts
 * @param hold how long the renewal scenario holds its locks
 * @param jvms worker JVMs of the cross-process scenario
 * @param threadsPerJvm threads in each worker JVM
 * @param heldLocks locks held at once in the renewal scenario
 * @param libraries the libraries to measure; the others show as n/a
 */
public record BenchSettings(Duration warmup, Duration measure, Duration hold, int jvms, int threadsPerJvm,
		int heldLocks, Set<Library> libraries) {

	/**
	 * Reads {@code bench.warmup}, {@code bench.measure}, {@code bench.hold}, {@code bench.jvms},
	 * {@code bench.threadsPerJvm}, {@code bench.heldLocks} and {@code bench.libraries} (comma-separated
	 * {@link Library} names; blank for all).
	 */
	public static BenchSettings fromSystemProperties() {
		return new BenchSettings(duration("bench.warmup", "3s"), duration("bench.measure", "4s"),
				duration("bench.hold", "10s"), Integer.getInteger("bench.jvms", 3),
				Integer.getInteger("bench.threadsPerJvm", 2), Integer.getInteger("bench.heldLocks", 10_000),
				libraries(System.getProperty("bench.libraries", "")));
	}

	private static Set<Library> libraries(String names) {
		if (names.isBlank()) {
			return EnumSet.allOf(Library.class);
		}
		return Arrays.stream(names.split(","))
			.map((name) -> Library.valueOf(name.trim()))
			.collect(Collectors.toCollection(() -> EnumSet.noneOf(Library.class)));
	}

	private static Duration duration(String property, String defaultValue) {
		return DurationStyle.detectAndParse(System.getProperty(property, defaultValue));
	}

	/** The settings as one line for the report. */
	public String describe() {
		String described = "warm-up %s, measurement %s, cross-process %d JVMs x %d threads, renewal %,d locks held for %s"
			.formatted(text(this.warmup), text(this.measure), this.jvms, this.threadsPerJvm, this.heldLocks,
					text(this.hold));
		return (this.libraries.size() == Library.values().length) ? described
				: described + ", only " + this.libraries;
	}

	private static String text(Duration duration) {
		return (duration.toMillis() % 1000 == 0) ? duration.toSeconds() + "s" : duration.toMillis() + "ms";
	}

}
