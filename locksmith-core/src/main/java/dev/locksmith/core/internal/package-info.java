/**
 * What Locksmith's own packages share beyond the public API: the lock frames of running calls, key
 * masking, time limits, thread factories, outage logs and the locked calls behind both {@code LockService#callLocked}
 * and the {@code @DistributedLock} aspect. Not API, and free to change in any release.
 */
@NullMarked
package dev.locksmith.core.internal;

import org.jspecify.annotations.NullMarked;
