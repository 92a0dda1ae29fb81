package dev.locksmith.core;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

import dev.locksmith.core.observation.DefaultLockAcquisitionObservationConvention;
import dev.locksmith.core.observation.DefaultLockHoldObservationConvention;
import dev.locksmith.core.observation.LockAcquisitionContext;
import dev.locksmith.core.observation.LockAcquisitionObservationConvention;
import dev.locksmith.core.observation.LockHoldContext;
import dev.locksmith.core.observation.LockHoldObservationConvention;
import dev.locksmith.core.observation.LockObservationContext;
import dev.locksmith.core.observation.LockObservationDocumentation;
import dev.locksmith.core.observation.LockOutcome;

/**
 * Starts the engine's observations, {@link LockObservationDocumentation documented} there, with the
 * application's conventions when it has its own.
 */
final class LockObservations {

	private static final LockAcquisitionObservationConvention DEFAULT_ACQUISITION = new DefaultLockAcquisitionObservationConvention();

	private static final LockHoldObservationConvention DEFAULT_HOLD = new DefaultLockHoldObservationConvention();

	private final ObservationRegistry registry;

	private final @Nullable LockAcquisitionObservationConvention acquisitionConvention;

	private final @Nullable LockHoldObservationConvention holdConvention;

	LockObservations(ObservationRegistry registry, @Nullable LockAcquisitionObservationConvention acquisitionConvention,
			@Nullable LockHoldObservationConvention holdConvention) {
		this.registry = registry;
		this.acquisitionConvention = acquisitionConvention;
		this.holdConvention = holdConvention;
	}

	/** The observation that the caller's own observation, if any, will be parent of. */
	@Nullable Observation current() {
		return this.registry.getCurrentObservation();
	}

	Observation startAcquisition(LockOptions options) {
		return LockObservationDocumentation.ACQUIRE
			.observation(this.acquisitionConvention, DEFAULT_ACQUISITION,
					() -> new LockAcquisitionContext(options.name(), options.mode(), options.permits()), this.registry)
			.start();
	}

	/**
	 * Starts observing the time a lock is held, as a sibling of its acquisition: a child of the caller's
	 * observation.
	 */
	Observation startHeld(LockOptions options, @Nullable Observation parent) {
		return LockObservationDocumentation.HELD
			.observation(this.holdConvention, DEFAULT_HOLD,
					() -> new LockHoldContext(options.name(), options.mode(), options.permits()), this.registry)
			.parentObservation(parent)
			.start();
	}

	static void renewed(Observation held) {
		held.event(LockObservationDocumentation.Events.RENEWED);
	}

	static void stop(Observation observation, LockOutcome outcome) {
		if (observation.getContext() instanceof LockObservationContext context) {
			context.setOutcome(outcome);
		}
		observation.stop();
	}

}
