package dev.locksmith.core;

import java.time.Instant;

/**
 * Published when this process finds that a lock it held was lost before it was released.
 *
 * @param key the lock key
 * @param fencingToken the fencing token of the lost grant
 * @param detectedAt when the loss was detected
 * @since 0.1.0
 */
public record LockLostEvent(String key, long fencingToken, Instant detectedAt) {
}
