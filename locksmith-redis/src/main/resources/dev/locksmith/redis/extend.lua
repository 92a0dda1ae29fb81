-- Extends many leases in one round trip, each only for its owner.
-- KEYS[i]      the lock keys (all in one hash slot on a cluster)
-- ARGV[3i-2]   owner token of KEYS[i]
-- ARGV[3i-1]   new lease of KEYS[i] in milliseconds
-- ARGV[3i]     1 when it is the owner's last lease: the lock stays taken that long, but its value no
--              longer names the owner, so no extension that arrives later lengthens it; else 0
-- Returns      for each key, 1 when extended, 0 when it is gone or another owner holds it.
local extended = {}
for i = 1, #KEYS do
  local owner = ARGV[3 * i - 2]
  if redis.call('GET', KEYS[i]) ~= owner then
    extended[i] = 0
  elseif ARGV[3 * i] == '1' then
    redis.call('SET', KEYS[i], owner .. '+released', 'PX', ARGV[3 * i - 1])
    extended[i] = 1
  else
    extended[i] = redis.call('PEXPIRE', KEYS[i], ARGV[3 * i - 1])
  end
end
return extended
