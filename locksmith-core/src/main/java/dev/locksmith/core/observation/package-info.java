/**
 * The engine's Micrometer observations, documented as {@link dev.locksmith.core.observation.LockObservationDocumentation}:
 * their contexts, and the conventions that name and tag them, which an application may replace.
 */
@NullMarked
package dev.locksmith.core.observation;

import org.jspecify.annotations.NullMarked;
