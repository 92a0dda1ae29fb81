-- Reads a fenced counter for a writer, and remembers its fencing token as seen; a writer whose token
-- is lower than one already seen is rejected, so no two writers ever work from the same read.
-- KEYS[1]  the counter: a hash with 'value' and 'seen' (the highest fencing token seen)
-- KEYS[2]  the checker's counters (a hash)
-- ARGV[1]  the writer's fencing token
-- Returns  the value, or -1 when the token is stale.
local token = tonumber(ARGV[1])
if token < tonumber(redis.call('HGET', KEYS[1], 'seen') or '0') then
  redis.call('HINCRBY', KEYS[2], 'rejected', 1)
  return -1
end
redis.call('HSET', KEYS[1], 'seen', ARGV[1])
return tonumber(redis.call('HGET', KEYS[1], 'value') or '0')
