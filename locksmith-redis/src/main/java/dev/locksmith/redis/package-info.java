/**
 * The lock stores on Redis: {@link dev.locksmith.redis.RedisLockStore} on one Redis deployment through
 * Spring Data Redis (Lua scripts for acquire, release and renewal, release notifications over pub/sub),
 * and {@link dev.locksmith.redis.RedlockLockStore}, Redlock over several independent Redis servers that
 * run the same scripts, where a lock is held once a majority of them granted it (see
 * docs/guide/redlock.md).
 */
@NullMarked
package dev.locksmith.redis;

import org.jspecify.annotations.NullMarked;
