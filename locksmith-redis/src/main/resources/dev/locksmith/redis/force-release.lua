-- Deletes a lock whatever its owner or its shares and hands it to its first waiter that can use it; the fencing
-- counter stays. Appended to hand-on.lua.
-- KEYS[1]  the lock key
-- KEYS[2]  its fencing counter
-- KEYS[3]  its wait queue
-- KEYS[4]  the deadlines of its waiters
-- KEYS[5]  its holders of shares
-- ARGV[1]  claim lease in milliseconds
-- ARGV[2]  how long a fencing counter outlives its last grant, in milliseconds
-- ARGV[3]  release channel of the lock
-- ARGV[4]  'SPUBLISH' or 'PUBLISH': how hand-overs are published (see hand-on.lua)
-- Returns  1 when a lock was deleted, else 0.
if redis.call('EXISTS', KEYS[1]) == 0 then
  return 0
end
-- Every share's lease ends now.
for _, holder in ipairs(redis.call('ZRANGE', KEYS[5], 0, -1)) do
  redis.call('ZADD', KEYS[5], 0, holder)
end
freeShared(KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], ARGV[3], ARGV[1], ARGV[2])
return 1
