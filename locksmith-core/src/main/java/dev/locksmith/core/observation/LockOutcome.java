package dev.locksmith.core.observation;

/** How an acquisition or a held time ended, as the {@code outcome} tag of its observation says it. */
public enum LockOutcome {

	ACQUIRED("acquired"), BUSY("busy"), UNAVAILABLE("unavailable"), INTERRUPTED("interrupted"), FAILED("failed"),
	RELEASED("released"), LOST("lost");

	private final String tag;

	LockOutcome(String tag) {
		this.tag = tag;
	}

	/** The value of the {@code outcome} tag. */
	public String tag() {
		return this.tag;
	}

}
