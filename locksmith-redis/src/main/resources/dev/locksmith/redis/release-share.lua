-- Releases one share of a lock only for its holder, or takes a waiter for a share that gives up out of
-- the queue, and passes what it freed on, in one round trip: the last share frees the lock for its
-- first waiter; a permit goes to the next waiter for the same permits. Appended to hand-on.lua.
-- KEYS[1]  the lock key
-- KEYS[2]  its fencing counter
-- KEYS[3]  its wait queue
-- KEYS[4]  the deadlines of its waiters
-- KEYS[5]  its holders of shares
-- ARGV[1]  owner token '<share>/<token>'
-- ARGV[2]  claim lease in milliseconds
-- ARGV[3]  how long a fencing counter outlives its last grant, in milliseconds
-- ARGV[4]  release channel of the lock
-- ARGV[5]  'SPUBLISH' or 'PUBLISH': how hand-overs are published (see hand-on.lua)
-- Returns  1 when the share was released; 0 when it is gone.
local lock, fence, queue, deadlines, holders = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local owner, claimLease, fenceLifetime, channel = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local share = shareOf(owner)
-- A waiter that gives up may leave the queue empty, and then nothing may touch it (see hand-on.lua).
local queued = true
if redis.call('HDEL', deadlines, owner) == 1 then
  queued = redis.call('LLEN', queue) > 1
  redis.call('LREM', queue, 0, owner)
end
if redis.call('GET', lock) ~= share then
  return 0
end
local nowMillis, nowMicros = serverTime()
local released = 0
if redis.call('ZSCORE', holders, owner) then
  -- Its lease ends now: it is dropped with the others that ended.
  redis.call('ZADD', holders, nowMillis, owner)
  released = 1
end
if redis.call('ZCOUNT', holders, liveFrom(nowMillis), '+inf') == 0 then
  if queued then
    freeShared(lock, fence, queue, deadlines, holders, channel, claimLease, fenceLifetime)
  else
    redis.call('DEL', lock, holders)
  end
  return released
end
if queued then
  grantShares(fence, queue, deadlines, holders, channel, claimLease, fenceLifetime, share, nowMillis, nowMicros)
end
keepShared(lock, holders, share, nowMillis)
return released
