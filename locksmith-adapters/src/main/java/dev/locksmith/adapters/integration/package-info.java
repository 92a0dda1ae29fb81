/**
 * A Spring Integration {@code LockRegistry} on Locksmith, for aggregators, idempotent receivers and
 * {@code LockRegistryLeaderInitiator}.
 */
@NullMarked
package dev.locksmith.adapters.integration;

import org.jspecify.annotations.NullMarked;
