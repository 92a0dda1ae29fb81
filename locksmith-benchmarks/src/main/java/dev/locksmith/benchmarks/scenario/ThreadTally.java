package dev.locksmith.benchmarks.scenario;

/**
 * What one thread of a worker JVM did, as it reports it on its standard output.
 *
 * @param allSections critical sections it completed, warm-up included: what the counter must show
 * @param sections critical sections it completed in the measured window
 * @param maxWaitNanos longest time it waited to acquire the lock in the measured window
 */
record ThreadTally(long allSections, long sections, long maxWaitNanos) {

	private static final String PREFIX = "bench:thread ";

	/** Whether {@code line} is a tally. */
	static boolean isTally(String line) {
		return line.startsWith(PREFIX);
	}

	/** Reads a line written by {@link #toLine()}. */
	static ThreadTally parse(String line) {
		String[] fields = line.substring(PREFIX.length()).split(" ");
		return new ThreadTally(Long.parseLong(fields[0]), Long.parseLong(fields[1]), Long.parseLong(fields[2]));
	}

	/** The line a worker prints. */
	String toLine() {
		return PREFIX + this.allSections + " " + this.sections + " " + this.maxWaitNanos;
	}

}
