-- Releases a lock only for its owner and tells waiters that it is free, in one round trip.
-- KEYS[1]  the lock key
-- ARGV[1]  owner token
-- ARGV[2]  release notification channel
-- ARGV[3]  notification message: the lock's key as the application named it
-- Returns  1 when released, 0 when the lock is gone or another owner holds it.
if redis.call('GET', KEYS[1]) ~= ARGV[1] then
  return 0
end
redis.call('DEL', KEYS[1])
redis.call('PUBLISH', ARGV[2], ARGV[3])
return 1
