package dev.locksmith.core;

import dev.locksmith.annotation.LockMode;

/**
 * What one owner holds of a lock: all of it ({@link #EXCLUSIVE}), a reader's share ({@link #READ}), or
 * one of a number of permits ({@link #permits(int)}).
 *
 * @param mode {@link LockMode#WRITE} for an exclusive lock and for permits, {@link LockMode#READ} for readers
 * @param permits how many holders the lock admits at once: 1 for an exclusive lock and for readers, who
 * have no limit
 * @since 0.1.0
 */
public record LockShare(LockMode mode, int permits) {

	/** The whole lock, for one owner. */
	public static final LockShare EXCLUSIVE = new LockShare(LockMode.WRITE, 1);

	/** A reader's share: readers hold the lock together, while no writer holds it. */
	public static final LockShare READ = new LockShare(LockMode.READ, 1);

	public LockShare {
		if (mode == null) {
			throw new IllegalArgumentException("mode must not be null");
		}
		if (permits < 1 || (mode == LockMode.READ && permits != 1)) {
			throw new IllegalArgumentException("permits must be 1 for mode " + mode + " or at least 1 for WRITE, was "
					+ permits);
		}
	}

	/** One of {@code permits} holders of a lock that admits that many at once; 1 is {@link #EXCLUSIVE}. */
	public static LockShare permits(int permits) {
		return (permits == 1) ? EXCLUSIVE : new LockShare(LockMode.WRITE, permits);
	}

	/** Whether this is the whole lock for one owner. */
	public boolean exclusive() {
		return this.mode == LockMode.WRITE && this.permits == 1;
	}

}
