package dev.locksmith.benchmarks.scenario;

/**
 * What one thread of a worker JVM did in one kind of section, as it reports it on its standard output.
 *
 * @param writer whether the sections excluded everyone: write or exclusive locks, not read locks or permits
 * @param allSections sections it completed, warm-up included: what a counter kept by the sections must show
 * @param sections sections it completed in the measured window
 * @param maxWaitNanos longest time it waited to acquire the lock in the measured window
 */
record ThreadTally(boolean writer, long allSections, long sections, long maxWaitNanos) {

	private static final String PREFIX = "bench:thread ";

	/** Whether {@code line} is a tally. */
	static boolean isTally(String line) {
		return line.startsWith(PREFIX);
	}

	/** Reads a line written by {@link #toLine()}. */
	static ThreadTally parse(String line) {
		String[] fields = line.substring(PREFIX.length()).split(" ");
		return new ThreadTally(Boolean.parseBoolean(fields[0]), Long.parseLong(fields[1]), Long.parseLong(fields[2]),
				Long.parseLong(fields[3]));
	}

	/** The line a worker prints. */
	String toLine() {
		return PREFIX + this.writer + " " + this.allSections + " " + this.sections + " " + this.maxWaitNanos;
	}

	/** This tally with one more section, measured or not. */
	ThreadTally plus(boolean measured, long waitNanos) {
		return measured ? new ThreadTally(this.writer, this.allSections + 1, this.sections + 1,
				Math.max(this.maxWaitNanos, waitNanos)) : new ThreadTally(this.writer, this.allSections + 1,
						this.sections, this.maxWaitNanos);
	}

}
