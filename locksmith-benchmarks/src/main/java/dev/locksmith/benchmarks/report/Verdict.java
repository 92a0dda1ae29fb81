package dev.locksmith.benchmarks.report;

/**
 * Whether one target was met.
 *
 * @param met whether the measured figure meets the target
 * @param target what was required
 * @param measured what was measured
 */
public record Verdict(boolean met, String target, String measured) {

	/** The line printed and reported: {@code met} or {@code NOT MET}, the target and the figure. */
	public String line() {
		return (this.met ? "met      " : "NOT MET  ") + this.target + ": " + this.measured;
	}

}
