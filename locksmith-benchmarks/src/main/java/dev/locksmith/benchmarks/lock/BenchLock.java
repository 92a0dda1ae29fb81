package dev.locksmith.benchmarks.lock;

/** One lock library reduced to what the scenarios measure: run a critical section under a key's lock. */
public interface BenchLock extends AutoCloseable {

	/**
	 * Runs {@code section} while holding the lock of {@code key}, waiting as long as it stays busy,
	 * and releases the lock afterwards.
	 */
	void runLocked(String key, Runnable section) throws Exception;

	/** Shuts down the library's clients. */
	@Override
	void close();

}
