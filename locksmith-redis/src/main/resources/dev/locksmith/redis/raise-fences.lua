-- Raises fencing counters to a floor, only while the caller still holds every one of the locks: a
-- quorum store (Redlock) writes the highest token its nodes issued back to the nodes that granted it.
-- KEYS[1..n]       the lock keys
-- KEYS[n+1..2n]    their fencing counters: KEYS[n+i] counts the grants of KEYS[i]
-- ARGV[1]          owner token
-- ARGV[2]          how long a fencing counter outlives its last grant, in milliseconds
-- ARGV[2+i]        the floor of KEYS[n+i]
-- Returns          1 when every lock is held by the owner and its counter is now at least its floor,
--                  0 when a lock is gone or held by another owner (then nothing was changed).
local n = #KEYS / 2
for i = 1, n do
  if redis.call('GET', KEYS[i]) ~= ARGV[1] then
    return 0
  end
end
for i = 1, n do
  local floor = tonumber(ARGV[2 + i])
  if tonumber(redis.call('GET', KEYS[n + i]) or '0') < floor then
    redis.call('SET', KEYS[n + i], ARGV[2 + i], 'PX', ARGV[2])
  end
end
return 1
