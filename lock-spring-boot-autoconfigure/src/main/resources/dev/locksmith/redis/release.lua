-- Releases locks only for their owner and tells waiters that they are free, in one round trip.
-- KEYS[1..n]     the lock keys
-- ARGV[1]        owner token
-- ARGV[2]        release notification channel
-- ARGV[2+i]      notification message for KEYS[i]: the lock's key as the application named it
-- Returns        how many of the locks were released; the others are gone or held by another owner.
local released = 0
for i = 1, #KEYS do
  if redis.call('GET', KEYS[i]) == ARGV[1] then
    redis.call('DEL', KEYS[i])
    redis.call('PUBLISH', ARGV[2], ARGV[2 + i])
    released = released + 1
  end
end
return released
