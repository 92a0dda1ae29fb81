-- Acquires one or more locks, all or nothing and in arrival order, and issues a fencing token for
-- each, in one round trip. Appended to hand-on.lua.
-- KEYS[1..n]       the lock keys
-- KEYS[n+1..2n]    their fencing counters: KEYS[n+i] counts the grants of KEYS[i]
-- KEYS[2n+1..3n]   their wait queues: owner tokens of waiters, first come first
-- KEYS[3n+1..4n]   the deadline of each waiter, in server milliseconds, by owner token
-- ARGV[1]          owner token
-- ARGV[2]          lease in milliseconds
-- ARGV[3]          how long a fencing counter outlives its last grant, in milliseconds
-- ARGV[4]          how long the caller waits when refused, in milliseconds; 0 = it does not queue
-- ARGV[5]          claim lease in milliseconds
-- ARGV[5+i]        release channel of KEYS[i]
-- Returns          {1, token of KEYS[1], ..., token of KEYS[n]} when every lock is now held;
--                  {0, i, remaining lease in ms} when KEYS[i] is held by another owner or a waiter
--                  ahead of the caller, who then stands in the queue of every key that is held
--                  or has waiters (never of a free key, which would keep others from it).
--
-- A free lock with waiters goes to the first of them (or to the caller when it is that waiter), so
-- nobody overtakes a queue. A caller refused on one key gives back the locks it was handed on the
-- others, so no waiter holds some keys while it waits for the rest, and keeps its place at the head
-- of their queues when someone else took them.
--
-- A fencing token is max(last token + 1, server time in microseconds): strictly increasing per lock
-- even when the server restarts empty or the counter expired, unless the server clock steps back by
-- more than the counter's lifetime.
local n = #KEYS / 4
local owner, lease, fenceLifetime, queueFor, claimLease = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4]), ARGV[5]
local nowMillis, nowMicros = serverTime()
local busy = 0
local noQueue = {}   -- keys found free without a queue: the caller stands in no queue to leave
for i = 1, n do
  local holder = redis.call('GET', KEYS[i])
  if not holder then
    if redis.call('EXISTS', KEYS[2 * n + i]) == 1 then
      handOn(KEYS[i], KEYS[2 * n + i], KEYS[3 * n + i], ARGV[5 + i], claimLease)
      holder = redis.call('GET', KEYS[i])
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
  local granted = {1}
  for i = 1, n do
    redis.call('SET', KEYS[i], owner, 'PX', lease)
    if not noQueue[i] and redis.call('HDEL', KEYS[3 * n + i], owner) == 1 then
      redis.call('LREM', KEYS[2 * n + i], 0, owner)
    end
    local fence = math.max(tonumber(redis.call('GET', KEYS[n + i]) or '0') + 1, nowMicros)
    redis.call('SET', KEYS[n + i], string.format('%.0f', fence), 'PX', fenceLifetime)
    granted[i + 1] = fence
  end
  return granted
end
local function keepPlace(i, push)
  redis.call('HSET', KEYS[3 * n + i], owner, nowMillis + queueFor)
  redis.call(push, KEYS[2 * n + i], owner)
  if redis.call('PTTL', KEYS[2 * n + i]) < queueFor then
    redis.call('PEXPIRE', KEYS[2 * n + i], queueFor)
    redis.call('PEXPIRE', KEYS[3 * n + i], queueFor)
  end
end
for i = 1, n do
  local holder = redis.call('GET', KEYS[i])
  if holder == owner then
    redis.call('DEL', KEYS[i])
    if handOn(KEYS[i], KEYS[2 * n + i], KEYS[3 * n + i], ARGV[5 + i], claimLease) and queueFor > 0 then
      keepPlace(i, 'LPUSH')
    end
  elseif queueFor > 0 and (holder or redis.call('EXISTS', KEYS[2 * n + i]) == 1)
      and redis.call('HEXISTS', KEYS[3 * n + i], owner) == 0 then
    keepPlace(i, 'RPUSH')
  end
end
return {0, busy, redis.call('PTTL', KEYS[busy])}
