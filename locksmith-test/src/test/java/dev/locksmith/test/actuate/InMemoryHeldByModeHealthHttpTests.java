package dev.locksmith.test.actuate;

import dev.locksmith.actuate.HeldByModeHealthHttpTests;

/** The held locks by mode in the {@code locks} health, over HTTP, on the in-memory store. */
class InMemoryHeldByModeHealthHttpTests extends HeldByModeHealthHttpTests {

	@Override
	protected String[] storeProperties() {
		return new String[] { "locksmith.store=in-memory" };
	}

}
