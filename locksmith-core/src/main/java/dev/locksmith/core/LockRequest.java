package dev.locksmith.core;

import java.util.List;

import io.micrometer.observation.Observation;
import org.jspecify.annotations.Nullable;

/**
 * One call's request for locks, as every attempt of its wait sends it: the canonical keys, the owner
 * with its share, the options, and the caller's observation, parent of the held time's.
 */
record LockRequest(List<String> keys, LockOwner owner, LockOptions options, @Nullable Observation callerObservation) {
}
