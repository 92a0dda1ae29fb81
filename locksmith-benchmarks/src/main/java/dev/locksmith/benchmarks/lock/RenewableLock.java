package dev.locksmith.benchmarks.lock;

import java.time.Duration;

/** A lock library with a watchdog that keeps extending the lease of a lock while it is held. */
public interface RenewableLock extends BenchLock {

	/** The lease of locks taken by {@link #holdRenewed}; the watchdogs extend it every third of it. */
	Duration RENEWED_LEASE = Duration.ofSeconds(3);

	/** Acquires the lock of {@code key} with a renewed lease of {@link #RENEWED_LEASE}; closing the result releases it. */
	Release holdRenewed(String key) throws Exception;

	/** Gives a held lock back; called on the thread that acquired it. */
	interface Release extends AutoCloseable {

		@Override
		void close();

	}

}
