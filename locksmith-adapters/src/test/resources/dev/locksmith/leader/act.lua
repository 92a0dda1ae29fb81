-- One act of a leader on the fenced resource: increments the counter unless a higher fencing token
-- acted first, and records who acted with which token.
-- KEYS[1]  the fenced counter: a hash of value, seen (the highest token accepted) and pid (its actor)
-- KEYS[2]  the checker's counts: accepted, rejected, rejected:<pid>, two-leaders
-- KEYS[3]  the leaderships that acted, in order: <pid>:<token>:<server time in ms>
-- KEYS[4]  the actor's hold flag: while it exists, the act is not made and -1 is returned
-- ARGV[1]  the actor's fencing token
-- ARGV[2]  the actor's pid
-- Returns  1 when accepted, 0 when rejected as stale, -1 when asked to hold
if redis.call('EXISTS', KEYS[4]) == 1 then
  redis.call('SET', KEYS[4], 'holding')
  return -1
end
local token = tonumber(ARGV[1])
local seen = tonumber(redis.call('HGET', KEYS[1], 'seen') or '0')
if token < seen then
  redis.call('HINCRBY', KEYS[2], 'rejected', 1)
  redis.call('HINCRBY', KEYS[2], 'rejected:' .. ARGV[2], 1)
  return 0
end
if token == seen and redis.call('HGET', KEYS[1], 'pid') ~= ARGV[2] then
  -- a second process acting with the same leadership
  redis.call('HINCRBY', KEYS[2], 'two-leaders', 1)
end
if token > seen then
  local time = redis.call('TIME')
  redis.call('RPUSH', KEYS[3], ARGV[2] .. ':' .. ARGV[1] .. ':' .. (time[1] * 1000 + math.floor(time[2] / 1000)))
end
redis.call('HINCRBY', KEYS[1], 'value', 1)
redis.call('HSET', KEYS[1], 'seen', ARGV[1], 'pid', ARGV[2])
redis.call('HINCRBY', KEYS[2], 'accepted', 1)
return 1
