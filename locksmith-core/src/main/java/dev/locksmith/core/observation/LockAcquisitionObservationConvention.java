package dev.locksmith.core.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/** Names and tags {@code locksmith.acquire} observations; a bean of this type replaces the default one. */
public interface LockAcquisitionObservationConvention extends ObservationConvention<LockAcquisitionContext> {

	@Override
	default boolean supportsContext(Observation.Context context) {
		return context instanceof LockAcquisitionContext;
	}

}
