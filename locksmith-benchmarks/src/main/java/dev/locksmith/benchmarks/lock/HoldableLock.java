package dev.locksmith.benchmarks.lock;

/** A lock library whose locks can be held beyond a critical section, until the caller gives them back. */
public interface HoldableLock extends BenchLock {

	/** Acquires the lock of {@code key}, waiting while it is busy; closing the result releases it. */
	Release hold(String key) throws Exception;

	@Override
	default void runLocked(String key, Runnable section) throws Exception {
		try (Release release = hold(key)) {
			section.run();
		}
	}

	/** Gives a held lock back; called on the thread that acquired it. */
	interface Release extends AutoCloseable {

		@Override
		void close();

	}

}
