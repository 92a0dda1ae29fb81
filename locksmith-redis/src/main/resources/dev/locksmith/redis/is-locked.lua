-- Tells whether a lock is held, by any owner or by a waiter it was handed to.
-- KEYS[1]  the lock key
-- Returns  1 when held, else 0.
return redis.call('EXISTS', KEYS[1])
