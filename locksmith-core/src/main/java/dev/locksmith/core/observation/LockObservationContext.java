package dev.locksmith.core.observation;

import io.micrometer.observation.Observation;
import org.jspecify.annotations.Nullable;

import dev.locksmith.annotation.LockMode;

/**
 * What an observation of a lock knows: the lock's name (never its key), its mode and permits, and, once
 * it ended, its outcome.
 */
public abstract sealed class LockObservationContext extends Observation.Context
		permits LockAcquisitionContext, LockHoldContext {

	private final @Nullable String lockName;

	private final LockMode mode;

	private final int permits;

	private @Nullable LockOutcome outcome;

	LockObservationContext(@Nullable String lockName, LockMode mode, int permits) {
		this.lockName = lockName;
		this.mode = mode;
		this.permits = permits;
	}

	/** The lock's name, or {@code null} for a lock without one. */
	public @Nullable String getLockName() {
		return this.lockName;
	}

	/**
	 * The lock's mode: {@link LockMode#WRITE} for an exclusive lock and for permits.
	 * @since 0.1.0
	 */
	public LockMode getMode() {
		return this.mode;
	}

	/**
	 * How many holders the lock admits at once: 1 for an exclusive or a read lock.
	 * @since 0.1.0
	 */
	public int getPermits() {
		return this.permits;
	}

	/** How the observed work ended, or {@code null} while it lasts. */
	public @Nullable LockOutcome getOutcome() {
		return this.outcome;
	}

	public void setOutcome(LockOutcome outcome) {
		this.outcome = outcome;
	}

}
