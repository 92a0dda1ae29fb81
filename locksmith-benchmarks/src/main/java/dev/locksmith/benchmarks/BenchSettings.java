package dev.locksmith.benchmarks;

import java.time.Duration;

import org.springframework.boot.convert.DurationStyle;

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
 */
public record BenchSettings(Duration warmup, Duration measure, Duration hold, int jvms, int threadsPerJvm,
		int heldLocks) {

	/** Reads {@code bench.warmup}, {@code bench.measure}, {@code bench.hold}, {@code bench.jvms}, {@code bench.threadsPerJvm} and {@code bench.heldLocks}. */
	public static BenchSettings fromSystemProperties() {
		return new BenchSettings(duration("bench.warmup", "1s"), duration("bench.measure", "4s"),
				duration("bench.hold", "10s"), Integer.getInteger("bench.jvms", 3),
				Integer.getInteger("bench.threadsPerJvm", 2), Integer.getInteger("bench.heldLocks", 10_000));
	}

	private static Duration duration(String property, String defaultValue) {
		return DurationStyle.detectAndParse(System.getProperty(property, defaultValue));
	}

	/** The settings as one line for the report. */
	public String describe() {
		return "warm-up %s, measurement %s, cross-process %d JVMs x %d threads, renewal %,d locks held for %s"
			.formatted(text(this.warmup), text(this.measure), this.jvms, this.threadsPerJvm, this.heldLocks,
					text(this.hold));
	}

	private static String text(Duration duration) {
		return DurationStyle.SIMPLE.print(duration);
	}

}
