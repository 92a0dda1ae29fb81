-- Deletes a lock whatever its owner and tells waiters that it is free; the fencing counter stays.
-- KEYS[1]  the lock key
-- ARGV[1]  release notification channel
-- ARGV[2]  notification message: the lock's key as the application named it
-- Returns  1 when a lock was deleted, else 0.
if redis.call('DEL', KEYS[1]) == 0 then
  return 0
end
redis.call('PUBLISH', ARGV[1], ARGV[2])
return 1
