package dev.locksmith.core.observation;

import io.micrometer.observation.Observation;
import org.jspecify.annotations.Nullable;

/** What an observation of a lock knows: the lock's name (never its key) and, once it ended, its outcome. */
public abstract sealed class LockObservationContext extends Observation.Context
		permits LockAcquisitionContext, LockHoldContext {

	private final @Nullable String lockName;

	private @Nullable LockOutcome outcome;

	LockObservationContext(@Nullable String lockName) {
		this.lockName = lockName;
	}

	/** The lock's name, or {@code null} for a lock without one. */
	public @Nullable String getLockName() {
		return this.lockName;
	}

	/** How the observed work ended, or {@code null} while it lasts. */
	public @Nullable LockOutcome getOutcome() {
		return this.outcome;
	}

	public void setOutcome(LockOutcome outcome) {
		this.outcome = outcome;
	}

}
