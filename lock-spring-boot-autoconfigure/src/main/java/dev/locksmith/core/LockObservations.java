package dev.locksmith.core;

import io.micrometer.common.KeyValue;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

import dev.locksmith.core.internal.LockNameTags;

/**
 * The engine's Micrometer observations, each tagged with the lock's name and the outcome (both of low
 * cardinality, never the key): {@code locksmith.acquire}, from the call to its answer, and
 * {@code locksmith.held}, from the grant to the release or the loss of the lease.
 */
final class LockObservations {

	static final String ACQUIRE = "locksmith.acquire";

	static final String HELD = "locksmith.held";

	private final ObservationRegistry registry;

	LockObservations(ObservationRegistry registry) {
		this.registry = registry;
	}

	/** The observation that the caller's own observation, if any, will be parent of. */
	@Nullable Observation current() {
		return this.registry.getCurrentObservation();
	}

	Observation startAcquisition(LockOptions options) {
		return Observation.createNotStarted(ACQUIRE, this.registry)
			.contextualName("acquire lock")
			.lowCardinalityKeyValue(name(options))
			.start();
	}

	/**
	 * Starts observing the time a lock is held, as a sibling of its acquisition: a child of the caller's
	 * observation.
	 */
	Observation startHeld(LockOptions options, @Nullable Observation parent) {
		return Observation.createNotStarted(HELD, this.registry)
			.contextualName("hold lock")
			.parentObservation(parent)
			.lowCardinalityKeyValue(name(options))
			.start();
	}

	static void stop(Observation observation, Outcome outcome) {
		observation.lowCardinalityKeyValue("outcome", outcome.tag).stop();
	}

	private static KeyValue name(LockOptions options) {
		return KeyValue.of("name", LockNameTags.of(options.name()));
	}

	/** How an acquisition or a held time ended, as its {@code outcome} tag says it. */
	enum Outcome {

		ACQUIRED("acquired"), BUSY("busy"), UNAVAILABLE("unavailable"), INTERRUPTED("interrupted"), FAILED("failed"),
		RELEASED("released"), LOST("lost");

		private final String tag;

		Outcome(String tag) {
			this.tag = tag;
		}

	}

}
