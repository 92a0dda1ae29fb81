-- Reads the checker's counters and the sum of the fenced counters at one instant.
-- KEYS[1]     the checker's counters (a hash)
-- KEYS[2..n]  the fenced counters
-- Returns     {name, value, ..., 'sum', sum of the counters' values}
local snapshot = redis.call('HGETALL', KEYS[1])
local sum = 0
for i = 2, #KEYS do
  sum = sum + tonumber(redis.call('HGET', KEYS[i], 'value') or '0')
end
table.insert(snapshot, 'sum')
table.insert(snapshot, tostring(sum))
return snapshot
