/**
 * What Locksmith's own packages share beyond the public API: the lock frames of running calls, key
 * masking, time limits and thread factories. Not API, and free to change in any release.
 */
@NullMarked
package dev.locksmith.core.internal;

import org.jspecify.annotations.NullMarked;
