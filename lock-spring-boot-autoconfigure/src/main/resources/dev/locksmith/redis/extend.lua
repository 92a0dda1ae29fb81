-- Extends many leases in one round trip, each only for its owner.
-- KEYS[i]      the lock keys (all in one hash slot on a cluster)
-- ARGV[2i-1]   owner token of KEYS[i]
-- ARGV[2i]     new lease of KEYS[i] in milliseconds
-- Returns      for each key, 1 when extended, 0 when it is gone or another owner holds it.
local extended = {}
for i = 1, #KEYS do
  if redis.call('GET', KEYS[i]) == ARGV[2 * i - 1] then
    extended[i] = redis.call('PEXPIRE', KEYS[i], ARGV[2 * i])
  else
    extended[i] = 0
  end
end
return extended
