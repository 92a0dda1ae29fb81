package dev.locksmith.benchmarks.report;

/**
 * Whether one target was met.
 *
 * @param passed whether the measured figure meets the target
 * @param target what was required
 * @param measured what was measured
 */
public record Verdict(boolean passed, String target, String measured) {

	/** The line printed and reported: {@code PASS} or {@code MISS}, the target and the figure. */
	public String line() {
		return (this.passed ? "PASS" : "MISS") + "  " + this.target + ": " + this.measured;
	}

}
