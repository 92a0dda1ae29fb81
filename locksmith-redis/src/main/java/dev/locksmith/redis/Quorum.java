package dev.locksmith.redis;

/** How many of a set of independent servers must agree: a strict majority, so any two quorums share a server. */
record Quorum(int servers) {

	Quorum {
		if (servers < 1) {
			throw new IllegalArgumentException("A quorum needs at least one server, was " + servers);
		}
	}

	/** The smallest majority of the servers. */
	int size() {
		return this.servers / 2 + 1;
	}

	/** Whether {@code agreeing} servers form a majority. */
	boolean reachedBy(int agreeing) {
		return agreeing >= size();
	}

	@Override
	public String toString() {
		return size() + " of " + this.servers;
	}

}
