package dev.locksmith.core;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * Published when this process finds that a lock it held was lost before it was released.
 *
 * @param name the lock's name as given in {@link LockOptions#name()}, or {@code null} when unnamed
 * @param key the lock key
 * @param fencingToken the fencing token of the lost grant
 * @param detectedAt when the loss was detected
 * @since 0.1.0
 */
public record LockLostEvent(@Nullable String name, String key, long fencingToken, Instant detectedAt) {
}
