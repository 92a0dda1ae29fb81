package dev.locksmith.core.observation;

import io.micrometer.common.docs.KeyName;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;
import io.micrometer.observation.docs.ObservationDocumentation;

/**
 * The engine's observations: {@code locksmith.acquire}, from the call to its answer, and
 * {@code locksmith.held}, from the grant to the release or the loss of the lease, with an event for every
 * renewal. Both are tagged with the lock's name, its mode and the outcome, never with its key.
 */
public enum LockObservationDocumentation implements ObservationDocumentation {

	/** An acquisition, from the call to its answer. */
	ACQUIRE {
		@Override
		public Class<? extends ObservationConvention<? extends Observation.Context>> getDefaultConvention() {
			return DefaultLockAcquisitionObservationConvention.class;
		}

		@Override
		public KeyName[] getLowCardinalityKeyNames() {
			return LowCardinalityKeys.values();
		}
	},

	/** The time a lock is held, from its grant to its release or the loss of its lease. */
	HELD {
		@Override
		public Class<? extends ObservationConvention<? extends Observation.Context>> getDefaultConvention() {
			return DefaultLockHoldObservationConvention.class;
		}

		@Override
		public KeyName[] getLowCardinalityKeyNames() {
			return LowCardinalityKeys.values();
		}

		@Override
		public Observation.Event[] getEvents() {
			return Events.values();
		}
	};

	/** The tags of both observations. */
	public enum LowCardinalityKeys implements KeyName {

		/** The lock's name, {@code unnamed} for a lock without one; never its key. */
		NAME {
			@Override
			public String asString() {
				return "name";
			}
		},

		/**
		 * The lock's mode: {@code write} (exclusive), {@code read} (shared by readers) or {@code permits}
		 * (one of a number of permits).
		 * @since 0.1.0
		 */
		MODE {
			@Override
			public String asString() {
				return "mode";
			}
		},

		/** How the observed work ended, a {@link LockOutcome}. */
		OUTCOME {
			@Override
			public String asString() {
				return "outcome";
			}
		}

	}

	/** What happens while a lock is held. */
	public enum Events implements Observation.Event {

		/** The lease was extended by the renewal watchdog. */
		RENEWED {
			@Override
			public String getName() {
				return "renewed";
			}
		}

	}

}
