-- Acquires one or more locks, all or nothing, and issues a fencing token for each, in one round trip.
-- KEYS[1..n]     the lock keys
-- KEYS[n+1..2n]  their fencing counters: KEYS[n+i] counts the grants of KEYS[i]
-- ARGV[1]        owner token
-- ARGV[2]        lease in milliseconds
-- ARGV[3]        how long a fencing counter outlives its last grant, in milliseconds
-- Returns        {1, token of KEYS[1], ..., token of KEYS[n]} when every lock was free and is now held;
--                {0, i, remaining lease in ms} when KEYS[i] is held by another owner (nothing is set).
--
-- A fencing token is max(counter + 1, server time in microseconds): strictly increasing per lock even
-- when the server restarts empty or the counter expired, unless the server clock steps back by more
-- than the counter's lifetime.
local n = #KEYS / 2
for i = 1, n do
  if redis.call('EXISTS', KEYS[i]) == 1 then
    return {0, i, redis.call('PTTL', KEYS[i])}
  end
end
local time = redis.call('TIME')
local floor = tonumber(time[1]) * 1000000 + tonumber(time[2])
local granted = {1}
for i = 1, n do
  redis.call('SET', KEYS[i], ARGV[1], 'PX', ARGV[2])
  local fence = redis.call('INCR', KEYS[n + i])
  if fence < floor then
    fence = floor
    redis.call('SET', KEYS[n + i], string.format('%.0f', floor))
  end
  redis.call('PEXPIRE', KEYS[n + i], ARGV[3])
  granted[i + 1] = fence
end
return granted
