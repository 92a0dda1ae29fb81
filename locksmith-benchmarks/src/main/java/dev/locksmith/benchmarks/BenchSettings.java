package dev.locksmith.benchmarks;

import java.time.Duration;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import org.springframework.boot.convert.DurationStyle;

import dev.locksmith.benchmarks.lock.Library;
import dev.locksmith.benchmarks.lock.Library.Store;

/**
 * Durations and sizes of a run, from system properties ({@code -Dbench.measure=1s}) so that a quick
 * run needs no code change. Each list is the x axis of one curve.
 *
 * @param warmup how long each library runs before a measurement starts
 * @param measure how long each measurement lasts
 * @param hold how long the renewal scenario holds its locks at each size
 * @param threads thread counts of the distinct-keys curve
 * @param jvms worker JVM counts of the one-key curve
 * @param threadsPerJvm threads in each worker JVM
 * @param heldLocks locks held at once in the footprint curve
 * @param waiters waiters for one held lock in the footprint curve
 * @param renewedLocks locks held at once in the renewal curve
 * @param libraries the libraries to measure; the others show as n/a
 */
public record BenchSettings(Duration warmup, Duration measure, Duration hold, List<Integer> threads,
		List<Integer> jvms, int threadsPerJvm, List<Integer> heldLocks, List<Integer> waiters,
		List<Integer> renewedLocks, Set<Library> libraries) {

	/**
	 * Reads {@code bench.warmup}, {@code bench.measure}, {@code bench.hold}, {@code bench.threads},
	 * {@code bench.jvms}, {@code bench.threadsPerJvm}, {@code bench.heldLocks}, {@code bench.waiters},
	 * {@code bench.renewedLocks} (lists are comma-separated) and {@code bench.libraries}
	 * (comma-separated {@link Library} names; blank for all the Redis ones).
	 */
	public static BenchSettings fromSystemProperties() {
		return new BenchSettings(duration("bench.warmup", "3s"), duration("bench.measure", "4s"),
				duration("bench.hold", "10s"), counts("bench.threads", "1,2,4,8,16,32,64"),
				counts("bench.jvms", "1,2,3,4,5,6"), Integer.getInteger("bench.threadsPerJvm", 2),
				counts("bench.heldLocks", "2000,5000,10000,20000"), counts("bench.waiters", "50,100,200,400"),
				counts("bench.renewedLocks", "10000,50000,100000"), libraries(System.getProperty("bench.libraries", "")));
	}

	private static Set<Library> libraries(String names) {
		if (names.isBlank()) {
			return EnumSet.copyOf(Library.on(Store.REDIS));
		}
		return Arrays.stream(names.split(","))
			.map((name) -> Library.valueOf(name.trim()))
			.collect(Collectors.toCollection(() -> EnumSet.noneOf(Library.class)));
	}

	private static List<Integer> counts(String property, String defaultValue) {
		return Arrays.stream(System.getProperty(property, defaultValue).split(","))
			.map((count) -> Integer.valueOf(count.trim()))
			.sorted()
			.toList();
	}

	private static Duration duration(String property, String defaultValue) {
		return DurationStyle.detectAndParse(System.getProperty(property, defaultValue));
	}

	/** The most worker JVMs that the one-key curve runs at once. */
	public int mostJvms() {
		return this.jvms.get(this.jvms.size() - 1);
	}

	/** The settings as one line for the report. */
	public String describe() {
		String described = ("warm-up %s, measurement %s; threads %s; JVMs %s x %d threads; held locks %s; waiters %s; "
				+ "renewed locks %s, each size held for %s").formatted(text(this.warmup), text(this.measure),
						this.threads, this.jvms, this.threadsPerJvm, this.heldLocks, this.waiters, this.renewedLocks,
						text(this.hold));
		return this.libraries.equals(EnumSet.copyOf(Library.on(Store.REDIS))) ? described
				: described + "; only " + this.libraries;
	}

	private static String text(Duration duration) {
		return (duration.toMillis() % 1000 == 0) ? duration.toSeconds() + "s" : duration.toMillis() + "ms";
	}

}
