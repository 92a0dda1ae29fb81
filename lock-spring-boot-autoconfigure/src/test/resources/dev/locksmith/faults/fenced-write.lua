-- Writes a fenced counter for a writer whose fencing token is not lower than any seen.
-- KEYS[1]  the counter: a hash with 'value' and 'seen' (the highest fencing token seen)
-- KEYS[2]  the checker's counters (a hash)
-- ARGV[1]  the new value
-- ARGV[2]  the writer's fencing token
-- Returns  1 when written, 0 when the token is stale.
if tonumber(ARGV[2]) < tonumber(redis.call('HGET', KEYS[1], 'seen') or '0') then
  redis.call('HINCRBY', KEYS[2], 'rejected', 1)
  return 0
end
redis.call('HSET', KEYS[1], 'value', ARGV[1], 'seen', ARGV[2])
redis.call('HINCRBY', KEYS[2], 'accepted', 1)
return 1
