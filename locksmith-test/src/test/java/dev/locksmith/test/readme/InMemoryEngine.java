package dev.locksmith.test.readme;

import dev.locksmith.core.DefaultLockService;
import dev.locksmith.test.inmemory.InMemoryLockBackend;

/** The README's engine on the in-memory store, without Spring. */
final class InMemoryEngine {

	private InMemoryEngine() {
	}

	static DefaultLockService build() {
		// tag::in-memory-engine[]
		InMemoryLockBackend store = new InMemoryLockBackend();
		DefaultLockService locks = DefaultLockService.builder(store)
				.releaseNotifications(store.releaseNotifications())
				.build();
		// end::in-memory-engine[]
		return locks;
	}

}
