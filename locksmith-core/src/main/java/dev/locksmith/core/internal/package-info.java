/**
 * What Locksmith's own packages share beyond the public API: the lock frames of running calls, key
 * masking, time limits, thread factories and outage logs. Not API, and free to change in any release.
 */
@NullMarked
package dev.locksmith.core.internal;

import org.jspecify.annotations.NullMarked;
