-- Writes a value only for a writer whose fencing token is at least the highest one seen.
-- KEYS[1]  a hash holding the value ('value') and the highest fencing token seen ('fence')
-- ARGV[1]  the value to write
-- ARGV[2]  the writer's fencing token
-- Returns  1 when written, 0 when rejected because a higher token was seen.
local seen = tonumber(redis.call('HGET', KEYS[1], 'fence') or '0')
if tonumber(ARGV[2]) < seen then
  return 0
end
redis.call('HSET', KEYS[1], 'value', ARGV[1], 'fence', ARGV[2])
return 1
