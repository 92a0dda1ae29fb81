package dev.locksmith.redis;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link ScenarioStore} whose calls are the engines' store calls as {@link CountingStore} counts them,
 * against the bounds of one Redis: the in-memory and PostgreSQL stores.
 */
abstract class CountedScenarioStore implements ScenarioStore {

	/** The store calls the engines made since the counts were zeroed. */
	final AtomicLong calls = new AtomicLong();

	@Override
	public void resetStats() {
		this.calls.set(0);
	}

	@Override
	public long calls() {
		return this.calls.get();
	}

	@Override
	public String callsName() {
		return "store calls";
	}

	@Override
	public int boundScale() {
		return 1;
	}

}
