package dev.locksmith.core.observation;

import org.jspecify.annotations.Nullable;

import dev.locksmith.annotation.LockMode;

/** The context of a {@link LockObservationDocumentation#ACQUIRE locksmith.acquire} observation. */
public final class LockAcquisitionContext extends LockObservationContext {

	/** The context of an exclusive lock called {@code lockName}. */
	public LockAcquisitionContext(@Nullable String lockName) {
		this(lockName, LockMode.WRITE, 1);
	}

	/**
	 * The context of a lock called {@code lockName}, exclusive, read or one of {@code permits}.
	 * @since 0.1.0
	 */
	public LockAcquisitionContext(@Nullable String lockName, LockMode mode, int permits) {
		super(lockName, mode, permits);
	}

}
