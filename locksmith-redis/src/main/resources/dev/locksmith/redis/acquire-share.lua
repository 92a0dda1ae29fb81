-- Acquires a share of one lock, as a reader or a permit holder, in arrival order with its writers, and
-- issues a fencing token for it, in one round trip. Appended to hand-on.lua.
-- KEYS[1]  the lock key
-- KEYS[2]  its fencing counter
-- KEYS[3]  its wait queue
-- KEYS[4]  the deadlines of its waiters
-- KEYS[5]  its holders of shares, by owner token, scored by the end of each one's lease
-- ARGV[1]  owner token '<share>/<token>'
-- ARGV[2]  lease in milliseconds
-- ARGV[3]  how long a fencing counter outlives its last grant, in milliseconds
-- ARGV[4]  how long the caller waits when refused, in milliseconds; 0 = it does not queue
-- ARGV[5]  claim lease in milliseconds
-- ARGV[6]  release channel of the lock
-- ARGV[7]  'SPUBLISH' or 'PUBLISH': how hand-overs are published (see hand-on.lua)
-- Returns  {1, token} when the share is now held;
--          {0, 1, ms until the lock or its first share may free, fencing counter} when refused, and
--          the caller waits in the queue: the lock is held by a writer or another share, waiters
--          stand ahead, or no permit is left;
--          {-1, permit count held} when the lock is held by permits of another count: a caller error.
local lock, fence, queue, deadlines, holders = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local owner, lease, fenceLifetime, queueFor, claimLease, channel =
    ARGV[1], tonumber(ARGV[2]), ARGV[3], tonumber(ARGV[4]), ARGV[5], ARGV[6]
local share = shareOf(owner)
local nowMillis, nowMicros = serverTime()
local holder = redis.call('GET', lock)
-- Whether this call served the queue: that took the caller out when it granted it, and may have emptied
-- the queue. The lock is free only when its key is absent, which a migrating slot refuses before running.
local served = false
if not holder and redis.call('EXISTS', queue) == 1 then
  holder = handOn(lock, fence, queue, deadlines, holders, channel, claimLease, fenceLifetime, owner)
  served = true
end
if holder and holder ~= share and limitOf(holder) > 0 and limitOf(share) > 0 then
  return {-1, limitOf(holder)}
end
local admitted = not holder
-- Whether the caller holds a share whose lease still runs (a claim handed to it, or its own share).
local function holdsLiveShare()
  return tonumber(redis.call('ZSCORE', holders, owner) or '0') > nowMillis
end
if holder == share then
  admitted = holdsLiveShare()
  if not admitted then
    -- Serves the waiters ahead first, the caller among them: it stands in the queue before serving it
    -- could empty it (see hand-on.lua).
    if queueFor > 0 and redis.call('EXISTS', queue) == 1 then
      stand(queue, deadlines, owner, nowMillis + queueFor, 'RPUSH', queueFor)
    end
    local waiting, count = grantShares(fence, queue, deadlines, holders, channel, claimLease, fenceLifetime, share,
        nowMillis, nowMicros, owner)
    local limit = limitOf(share)
    admitted = holdsLiveShare() or (not waiting and (limit == 0 or count < limit))
    served = true
  end
end
if admitted then
  redis.call('ZADD', holders, nowMillis + lease, owner)
  if not served and redis.call('HDEL', deadlines, owner) == 1 then
    redis.call('LREM', queue, 0, owner)
  end
  keepShared(lock, holders, share, nowMillis)
  return {1, nextFence(fence, fenceLifetime, nowMicros)}
end
if queueFor > 0 then
  stand(queue, deadlines, owner, nowMillis + queueFor, 'RPUSH', queueFor)
end
local fenced = tonumber(redis.call('GET', fence) or '0')
if holder == share then
  local first = redis.call('ZRANGEBYSCORE', holders, liveFrom(nowMillis), '+inf', 'WITHSCORES', 'LIMIT', 0, 1)[2]
  if first then
    keepShared(lock, holders, share, nowMillis)
    return {0, 1, tonumber(first) - nowMillis, fenced}
  end
  -- The last share ended in the millisecond before the lock's key would expire, and a waiter for
  -- something else stands ahead: the lock goes on to it as a release would hand it. -2, as PTTL answers
  -- for a deleted key: no lease is left to wait for.
  freeShared(lock, fence, queue, deadlines, holders, channel, claimLease, fenceLifetime)
  return {0, 1, -2, fenced}
end
return {0, 1, redis.call('PTTL', lock), fenced}
