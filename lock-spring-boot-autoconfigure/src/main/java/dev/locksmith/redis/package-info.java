/**
 * {@link dev.locksmith.core.LockBackend} on Spring Data Redis: Lua scripts for acquire, release and
 * renewal, and release notifications over pub/sub.
 */
@NullMarked
package dev.locksmith.redis;

import org.jspecify.annotations.NullMarked;
