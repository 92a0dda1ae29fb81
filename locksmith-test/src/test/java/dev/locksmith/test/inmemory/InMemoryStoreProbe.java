package dev.locksmith.test.inmemory;

/**
 * What tests in other packages may read of an {@link InMemoryLockBackend} beyond its public API: the
 * length of a key's wait queue, as Redis's {@code LLEN} of the queue would tell.
 */
public final class InMemoryStoreProbe {

	private InMemoryStoreProbe() {
	}

	/** How many owners stand in the queue of {@code key}. */
	public static int queueLength(InMemoryLockBackend store, String key) {
		return store.queueLength(key);
	}

}
