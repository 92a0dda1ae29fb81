-- Records that a process was granted a Spring Integration leadership, and counts the grants and the
-- grants made while another process held its leadership still.
-- KEYS[1]  the processes granted and not revoked since: a set of pids
-- KEYS[2]  the checker's counts: grants, two-leaders
-- ARGV[1]  the granted process's pid
-- Returns  how many processes hold a leadership now
redis.call('SADD', KEYS[1], ARGV[1])
redis.call('HINCRBY', KEYS[2], 'grants', 1)
local holders = redis.call('SCARD', KEYS[1])
if holders > 1 then
  redis.call('HINCRBY', KEYS[2], 'two-leaders', 1)
end
return holders
