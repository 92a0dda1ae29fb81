package dev.locksmith.benchmarks.lock;

import java.time.Duration;

/**
 * A lock library's shared locks reduced to what the shared-lock scenario measures: a read or write
 * section on a read/write lock, and a section under one of a key's permits. Each call waits as long
 * as the lock stays busy and returns how long it waited, in nanoseconds.
 */
public interface SharedLock extends AutoCloseable {

	/** The lease of every shared lock and permit. */
	Duration LEASE = Duration.ofSeconds(30);

	/** Runs {@code section} holding the read lock of {@code key}, shared with other readers. */
	long read(String key, Runnable section) throws Exception;

	/** Runs {@code section} holding the write lock of {@code key}, which excludes everyone. */
	long write(String key, Runnable section) throws Exception;

	/** Runs {@code section} holding one of the {@code permits} permits of {@code key}. */
	long permit(String key, int permits, Runnable section) throws Exception;

	/** Shuts down the library's clients. */
	@Override
	void close();

}
