/**
 * Redlock: one {@link dev.locksmith.core.LockBackend} over several independent Redis servers, where a
 * lock is held once a majority of them granted it, with fencing tokens that stay strictly increasing
 * while the servers keep their data or their clocks agree (see docs/guide/redlock.md).
 */
@NullMarked
package dev.locksmith.redlock;

import org.jspecify.annotations.NullMarked;
