package dev.locksmith.core;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

import dev.locksmith.annotation.LockMode;

/**
 * A snapshot of one lock held by this process.
 *
 * @param name the lock's name as given in {@link LockOptions#name()}, or {@code null} when unnamed
 * @param key the lock key
 * @param fencingToken the fencing token of the grant
 * @param acquiredAt when the lock was granted
 * @param expiresAt when the current lease ends unless renewed
 * @param renewals how many times the lease was extended
 * @param ownerThread name of the thread that acquired the lock
 * @param holder what holds the lock, such as the annotated method, when known
 * @param mode {@link LockMode#WRITE} for an exclusive lock and for permits, {@link LockMode#READ} for a reader
 * @param permits how many holders the lock admits at once: 1 for an exclusive or a read lock
 * @since 0.1.0
 */
public record LockInfo(@Nullable String name, String key, long fencingToken, Instant acquiredAt, Instant expiresAt,
		long renewals, String ownerThread, @Nullable String holder, LockMode mode, int permits) {

	/** A snapshot of an exclusive lock. */
	public LockInfo(@Nullable String name, String key, long fencingToken, Instant acquiredAt, Instant expiresAt,
			long renewals, String ownerThread, @Nullable String holder) {
		this(name, key, fencingToken, acquiredAt, expiresAt, renewals, ownerThread, holder, LockMode.WRITE, 1);
	}

}
