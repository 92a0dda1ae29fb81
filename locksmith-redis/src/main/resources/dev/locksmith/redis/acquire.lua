-- Acquires one or more locks, all or nothing and in arrival order, and issues a fencing token for
-- each, in one round trip. Appended to hand-on.lua.
-- KEYS[1..n]       the lock keys
-- KEYS[n+1..2n]    their fencing counters: KEYS[n+i] counts the grants of KEYS[i]
-- KEYS[2n+1..3n]   their wait queues: owner tokens of waiters, first come first
-- KEYS[3n+1..4n]   the deadline of each waiter, in server milliseconds, by owner token
-- KEYS[4n+1..5n]   their holders of shares, by owner token, scored by the end of each one's lease
-- ARGV[1]          owner token
-- ARGV[2]          lease in milliseconds
-- ARGV[3]          how long a fencing counter outlives its last grant, in milliseconds
-- ARGV[4]          how long the caller waits when refused, in milliseconds; 0 = it does not queue
-- ARGV[5]          claim lease in milliseconds
-- ARGV[5+i]        release channel of KEYS[i]
-- ARGV[#ARGV]      'SPUBLISH' or 'PUBLISH': how hand-overs are published (see hand-on.lua)
-- Returns          {1, token of KEYS[1], ..., token of KEYS[n]} when every lock is now held;
--                  {0, i, remaining lease in ms, fencing counter of KEYS[i]} when KEYS[i] is held by
--                  another owner or was handed to a waiter ahead of the caller, who then stands in the
--                  queue of every key that is held or has waiters (never of a free key, which would
--                  keep others from it). A hand-over of KEYS[i] whose token is at most that counter
--                  is older than this refusal.
--
-- A free lock goes to the first waiter that can use it now, so nobody overtakes a waiter that could
-- take it. A refused caller waits for the busy key KEYS[i] and is parked in the queues of its other
-- keys: it keeps its place there, but releases pass it over, and a lock it was handed goes on to the
-- next waiter that can use it, or stays free. So no waiter holds some keys while it waits for the rest,
-- and a free key never bounces between waiters that cannot use it.
local n = #KEYS / 5
local owner, lease, fenceLifetime, queueFor, claimLease = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4]), ARGV[5]
-- The uncontended path: one free key that nobody waits for.
if n == 1 and redis.call('EXISTS', KEYS[3]) == 0 and redis.call('SET', KEYS[1], owner, 'NX', 'PX', lease) then
  local _, nowMicros = serverTime()
  return {1, nextFence(KEYS[2], fenceLifetime, nowMicros)}
end
local busy = 0
local noQueue = {}   -- keys found free without a queue: the caller stands in no queue to leave
for i = 1, n do
  local holder = redis.call('GET', KEYS[i])
  if not holder then
    if redis.call('EXISTS', KEYS[2 * n + i]) == 1 then
      holder = handOn(KEYS[i], KEYS[n + i], KEYS[2 * n + i], KEYS[3 * n + i], KEYS[4 * n + i],
          ARGV[5 + i], claimLease, fenceLifetime, owner)
    else
      noQueue[i] = true
    end
  end
  if holder and holder ~= owner then
    busy = i
    break
  end
end
if busy == 0 then
  local _, nowMicros = serverTime()
  local granted = {1}
  for i = 1, n do
    redis.call('SET', KEYS[i], owner, 'PX', lease)
    if not noQueue[i] and redis.call('HDEL', KEYS[3 * n + i], owner) == 1 then
      redis.call('LREM', KEYS[2 * n + i], 0, owner)
    end
    granted[i + 1] = nextFence(KEYS[n + i], fenceLifetime, nowMicros)
  end
  return granted
end
if queueFor <= 0 then
  for i = 1, n do
    local holder = redis.call('GET', KEYS[i])
    if holder == owner then
      free(KEYS[i], KEYS[n + i], KEYS[2 * n + i], KEYS[3 * n + i], KEYS[4 * n + i],
        ARGV[5 + i], claimLease, fenceLifetime)
    elseif not holder and i < busy and not noQueue[i] then
      -- the caller came first on this free key and no longer waits: its entry ends, and the next
      -- waiter that can use the key takes it
      redis.call('HSET', KEYS[3 * n + i], owner, 0)
      handOn(KEYS[i], KEYS[n + i], KEYS[2 * n + i], KEYS[3 * n + i], KEYS[4 * n + i],
          ARGV[5 + i], claimLease, fenceLifetime)
    end
  end
  return {0, busy, redis.call('PTTL', KEYS[busy]), tonumber(redis.call('GET', KEYS[n + busy]) or '0')}
end
-- Waits for the busy key (a positive deadline) and is parked for the others (a negative one).
local deadline = serverTime() + queueFor
for i = 1, n do
  local holder = redis.call('GET', KEYS[i])
  if i == busy then
    stand(KEYS[2 * n + i], KEYS[3 * n + i], owner, deadline, 'RPUSH', queueFor)
  elseif holder == owner then
    stand(KEYS[2 * n + i], KEYS[3 * n + i], owner, -deadline, 'LPUSH', queueFor)
    free(KEYS[i], KEYS[n + i], KEYS[2 * n + i], KEYS[3 * n + i], KEYS[4 * n + i],
        ARGV[5 + i], claimLease, fenceLifetime)
  elseif holder or redis.call('EXISTS', KEYS[2 * n + i]) == 1 then
    stand(KEYS[2 * n + i], KEYS[3 * n + i], owner, -deadline, 'RPUSH', queueFor)
    if not holder then
      -- free, and the caller no longer takes it: the next waiter that can use it does
      handOn(KEYS[i], KEYS[n + i], KEYS[2 * n + i], KEYS[3 * n + i], KEYS[4 * n + i],
          ARGV[5 + i], claimLease, fenceLifetime)
    end
  end
end
return {0, busy, redis.call('PTTL', KEYS[busy]), tonumber(redis.call('GET', KEYS[n + busy]) or '0')}
