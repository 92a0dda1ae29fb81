-- Deletes a lock whatever its owner and hands it to its first live waiter; the fencing counter stays.
-- Appended to hand-on.lua.
-- KEYS[1]  the lock key
-- KEYS[2]  its wait queue
-- KEYS[3]  the deadlines of its waiters
-- ARGV[1]  claim lease in milliseconds
-- ARGV[2]  release channel of the lock
-- Returns  1 when a lock was deleted, else 0.
if redis.call('DEL', KEYS[1]) == 0 then
  return 0
end
handOn(KEYS[1], KEYS[2], KEYS[3], ARGV[2], ARGV[1])
return 1
