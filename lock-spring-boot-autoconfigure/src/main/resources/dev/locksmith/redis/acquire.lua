-- Acquires a lock and issues its fencing token, in one round trip.
-- KEYS[1]  the lock key
-- KEYS[2]  the fencing counter of that lock (same hash slot)
-- ARGV[1]  owner token
-- ARGV[2]  lease in milliseconds
-- ARGV[3]  how long the fencing counter outlives its last grant, in milliseconds
-- Returns  {1, fencing token} when granted, else {0, remaining lease of the holder in milliseconds}.
--
-- The fencing token is max(counter + 1, server time in microseconds): strictly increasing per lock
-- even when the server restarts empty or the counter expired, as long as the server clock does not
-- step back by more than the counter's lifetime.
if not redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return {0, redis.call('PTTL', KEYS[1])}
end
local time = redis.call('TIME')
local floor = tonumber(time[1]) * 1000000 + tonumber(time[2])
local fence = redis.call('INCR', KEYS[2])
if fence < floor then
  fence = floor
  redis.call('SET', KEYS[2], string.format('%.0f', floor))
end
redis.call('PEXPIRE', KEYS[2], ARGV[3])
return {1, fence}
