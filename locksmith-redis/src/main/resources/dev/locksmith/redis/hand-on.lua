-- Shared by every script that frees a lock; the scripts that use it are appended to it.
-- A freed lock goes to the first waiter of its queue that can use it now: the lock is set to that
-- waiter's owner token for a short claim lease and a fencing token is issued for it, both published
-- on the lock's channel, so a waiter for this lock alone starts its work on the message and extends
-- the claim to its own lease in the background. A waiter's deadline, in server milliseconds, is kept
-- negative while it is parked: it also waits for another lock that was busy when it last asked, so it
-- keeps its place but is passed over. Waiters whose deadline passed are dropped.
-- Readers and permit holders share a lock: their owner tokens are '<share>/<token>' with the share
-- '@read' or '@permits=<n>'. While shares are held, the lock's value is the share, and a sorted set of
-- holders keeps each holder's owner token scored by the end of its own lease, in server milliseconds;
-- the lock lives as long as its longest share. A freed lock whose first waiter asks for a share goes to
-- every waiter for that share up to the next other waiter (and the permit count), in one call.
--
-- No script is cut in half by its own writes in a slot migration. On the node a slot migrates from, a script runs only when
-- every key it names exists there (else Redis answers TRYAGAIN or ASK before it starts), but a key it
-- deletes then counts as moved: the next command on that key fails the script halfway ("non local key"),
-- and Redis keeps what the commands before it did. So no script touches a key after a command that may
-- have deleted it: a DEL, a ZREM or ZREMRANGEBYSCORE that may empty the holders, an LREM or HDEL that may
-- empty the queue. A lock is overwritten before it could be deleted, never deleted and set again; a
-- share's lease ends by scoring it now, and the ended ones are dropped last (keepShared); a caller stands
-- in the queue before serving it could empty it. A migration can then refuse a script, which the caller
-- sends again, but not cut it in half by its own writes. (A key whose lease ends between Redis admitting
-- a script and the script reading it counts as moved too; where that can happen, what ran before is safe
-- to run again.)

-- The server's clock in milliseconds, and in microseconds.
local function serverTime()
  local time = redis.call('TIME')
  local seconds, micros = tonumber(time[1]), tonumber(time[2])
  return seconds * 1000 + math.floor(micros / 1000), seconds * 1000000 + micros
end

-- Issues the next fencing token of a lock: max(last token + 1, server time in microseconds), strictly
-- increasing per lock even when the server restarts empty or the counter expired, unless the server
-- clock steps back by more than the counter's lifetime.
local function nextFence(fence, fenceLifetime, nowMicros)
  local token = math.max(tonumber(redis.call('GET', fence) or '0') + 1, nowMicros)
  redis.call('SET', fence, string.format('%.0f', token), 'PX', fenceLifetime)
  return token
end

-- How hand-overs are published: the script's last argument is 'SPUBLISH' where the subscribers listen on
-- shard channels (a Lettuce cluster connection), published then within the shard of the lock's slot, which
-- its channel shares through the hash tag, instead of over the cluster bus to every node. A server older
-- than 7.0 has no sharded pub/sub, nor redis.REDIS_VERSION_NUM, and PUBLISHes.
local sharded = ARGV[#ARGV] == 'SPUBLISH' and redis.REDIS_VERSION_NUM ~= nil

-- Publishes a message on a lock's channel. A sharded publish that Redis refuses (a user whose ACL
-- predates sharded pub/sub, without +spublish) is published classically instead: a hand-over never
-- fails for its notice, and a waiter that missed it re-checks.
local function publish(channel, message)
  if sharded then
    local sent = redis.pcall('SPUBLISH', channel, message)
    if type(sent) ~= 'table' or not sent.err then
      return
    end
  end
  redis.call('PUBLISH', channel, message)
end

-- The hand-overs this script published, as channel and message pairs, for a script that answers them
-- to its caller: a waiter in the caller's own process then starts without waiting for the message.
local handOvers = {}

-- Publishes on a lock's channel that it was handed to waiter under the claim lease with its fencing
-- token, as '<claim lease ms>:<fencing token>:<owner token>', and keeps the hand-over for the answer.
local function announceHandOver(channel, claimLease, token, waiter)
  local message = claimLease .. ':' .. string.format('%.0f', token) .. ':' .. waiter
  publish(channel, message)
  handOvers[#handOvers + 1] = channel
  handOvers[#handOvers + 1] = message
end

-- Stands the owner in a lock's queue with its deadline, negative while parked: at the tail, or with
-- 'LPUSH' at the head, when not in it yet. The queue lives at least queueFor milliseconds more.
local function stand(queue, deadlines, owner, deadline, push, queueFor)
  if redis.call('HSET', deadlines, owner, deadline) == 1 then
    redis.call(push, queue, owner)
  end
  if redis.call('PTTL', queue) < queueFor then
    redis.call('PEXPIRE', queue, queueFor)
    redis.call('PEXPIRE', deadlines, queueFor)
  end
end

-- The share an owner token asks for, such as '@read' or '@permits=4'; nil for an exclusive owner.
local function shareOf(owner)
  return string.match(owner, '^(@read)/') or string.match(owner, '^(@permits=%d+)/')
end

-- Whether a lock's value is a share, '@read' or '@permits=<n>', rather than one owner's token.
local function isShare(value)
  return value == '@read' or string.match(value, '^@permits=%d+$') ~= nil
end

-- How many holders a share admits: its permit count, or 0 for readers, who have no limit.
local function limitOf(share)
  return tonumber(string.match(share, '^@permits=(%d+)$') or '0')
end

-- The lowest score of a holder whose lease still runs at nowMillis, for ZCOUNT and ZRANGEBYSCORE.
local function liveFrom(nowMillis)
  return string.format('(%.0f', nowMillis)
end

-- Sets a shared lock to live as long as its longest share and drops the shares whose lease ended, or
-- deletes the lock and its holders when no share is left: the last command on either key.
local function keepShared(lock, holders, share, nowMillis)
  local longest = tonumber(redis.call('ZRANGE', holders, -1, -1, 'WITHSCORES')[2] or '0')
  if longest <= nowMillis then
    redis.call('DEL', lock, holders)
    return
  end
  redis.call('ZREMRANGEBYSCORE', holders, '-inf', nowMillis)
  redis.call('SET', lock, share, 'PX', longest - nowMillis)
  redis.call('PEXPIRE', holders, longest - nowMillis)
end

-- Grants the share to waiters from the head of the queue, in order, up to the first live waiter for
-- something else and while permits are left, each under the claim lease with its own fencing token,
-- published to it; the caller is granted without either, as its own script answers it. Holders whose
-- lease ended are not counted; the caller drops them with keepShared. Returns whether a live waiter is
-- left that could not be granted, and how many holders' leases run now.
local function grantShares(fence, queue, deadlines, holders, channel, claimLease, fenceLifetime, share,
    nowMillis, nowMicros, caller)
  local limit = limitOf(share)
  local count = redis.call('ZCOUNT', holders, liveFrom(nowMillis), '+inf')
  local waiting = false
  for _, waiter in ipairs(redis.call('LRANGE', queue, 0, -1)) do
    local deadline = tonumber(redis.call('HGET', deadlines, waiter) or '0')
    if waiter ~= caller and math.abs(deadline) <= nowMillis then
      redis.call('LREM', queue, 1, waiter)
      redis.call('HDEL', deadlines, waiter)
    elseif waiter == caller or deadline > 0 then
      if shareOf(waiter) ~= share or (limit > 0 and count >= limit) then
        waiting = true
        break
      end
      redis.call('LREM', queue, 1, waiter)
      redis.call('HDEL', deadlines, waiter)
      redis.call('ZADD', holders, nowMillis + claimLease, waiter)
      count = count + 1
      if waiter ~= caller then
        announceHandOver(channel, claimLease, nextFence(fence, fenceLifetime, nowMicros), waiter)
      end
    end
  end
  return waiting, count
end

-- Cohort hand-over (lock cohorting, Dice, Marathe and Shavit, PPoPP 2012): a release may hand the lock to
-- a waiter of the releasing owner's own process (the instance id its token starts with) further back in
-- the queue, ahead of the first waiter, at most a bound of times in a row; then the first waiter has it.
-- Each such pass is a hand-over like any other, with its own claim lease and fencing token. The lock's
-- deadlines hash keeps the count in its field PASSES (no owner token, which always holds ':') as
-- '<passes> <owner token>': how many passes in a row went ahead of the first waiter, and to whom the last
-- went. It counts only for a release by that owner, so a count left over from an earlier run starts afresh.
local PASSES = 'cohort-passes'

-- How far behind the first waiter a release looks for a waiter of its own process.
local COHORT_SCAN = 32

-- The instance id that an owner token '<instance>:<hex>[;<name>]' starts with (its name has no ':').
local function instanceOf(entry)
  return string.match(entry, '^(.*):')
end

-- The cohort of a release by owner, who may pass the lock to its own process up to bound times in a row;
-- nil for a bound of 0, which keeps arrival order, and for a token that names no instance.
local function cohortOf(owner, bound)
  local instance = instanceOf(owner)
  if bound <= 0 or not instance then
    return nil
  end
  return {owner = owner, instance = instance, bound = bound}
end

-- The waiter of the releasing process that the release hands the lock to ahead of the first waiter, the
-- first live exclusive one within COHORT_SCAN places behind it, and the passes in a row that makes; nil when
-- there is no cohort, the first waiter is of the releasing process, the passes reached the bound, or no
-- waiter of the process waits close enough.
local function cohortTaker(waiters, first, deadlines, cohort, nowMillis)
  if not cohort or instanceOf(waiters[first]) == cohort.instance then
    return nil
  end
  local count, last = string.match(redis.call('HGET', deadlines, PASSES) or '', '^(%d+) (.*)$')
  local passes = (last == cohort.owner) and tonumber(count) + 1 or 1
  if passes > cohort.bound then
    return nil
  end
  for i = first + 1, math.min(#waiters, first + COHORT_SCAN) do
    local waiter = waiters[i]
    if not shareOf(waiter) and instanceOf(waiter) == cohort.instance
        and tonumber(redis.call('HGET', deadlines, waiter) or '0') > nowMillis then
      return waiter, passes
    end
  end
  return nil
end

-- Finds who may take the free lock: the first live waiter that is not parked, or the caller (nil for
-- a release) when it comes first. A waiter other than the caller is handed the lock and taken out of
-- the queue; when the first asks for a share, the waiters for it are granted together. A release's
-- cohort (nil for none) may hand an exclusive lock to a waiter of its own process instead (cohortTaker).
-- Returns that waiter's owner token, or the share, or nil when nobody but parked waiters waits.
local function handOn(lock, fence, queue, deadlines, holders, channel, claimLease, fenceLifetime, caller, cohort)
  local waiters = redis.call('LRANGE', queue, 0, -1)
  if #waiters == 0 then
    return nil
  end
  local nowMillis, nowMicros = serverTime()
  for index, waiter in ipairs(waiters) do
    local deadline = tonumber(redis.call('HGET', deadlines, waiter) or '0')
    local share = shareOf(waiter)
    if share and (waiter == caller or deadline > nowMillis) then
      grantShares(fence, queue, deadlines, holders, channel, claimLease, fenceLifetime, share, nowMillis, nowMicros,
          caller)
      keepShared(lock, holders, share, nowMillis)
      return share
    elseif waiter == caller then
      return caller
    elseif math.abs(deadline) <= nowMillis then
      redis.call('LREM', queue, 1, waiter)
      redis.call('HDEL', deadlines, waiter)
    elseif deadline > 0 then
      -- a pass ahead of the first waiter leaves it in the queue and the deadlines, so neither empties
      local taker, passes = cohortTaker(waiters, index, deadlines, cohort, nowMillis)
      taker = taker or waiter
      redis.call('LREM', queue, 1, taker)
      if passes then
        redis.call('HSET', deadlines, PASSES, passes .. ' ' .. taker)
        redis.call('HDEL', deadlines, taker)
      else
        redis.call('HDEL', deadlines, taker, PASSES)
      end
      redis.call('SET', lock, taker, 'PX', claimLease)
      announceHandOver(channel, claimLease, nextFence(fence, fenceLifetime, nowMicros), taker)
      return taker
    end
  end
  return nil
end

-- Frees a lock the script found set: hands it on, or deletes it when nobody but parked waiters waits.
-- Every script that frees an exclusive lock ends its work on the lock's keys with this; a release passes
-- its cohort (see cohortOf), the others nil.
local function free(lock, fence, queue, deadlines, holders, channel, claimLease, fenceLifetime, cohort)
  if not handOn(lock, fence, queue, deadlines, holders, channel, claimLease, fenceLifetime, nil, cohort) then
    redis.call('DEL', lock)
  end
end

-- Frees a lock whatever holds it, once every share it has (if any) has ended: hands it on, and deletes
-- what is left of its holders unless it went to waiters for a share, whose grant dropped the ended ones.
local function freeShared(lock, fence, queue, deadlines, holders, channel, claimLease, fenceLifetime)
  local next = handOn(lock, fence, queue, deadlines, holders, channel, claimLease, fenceLifetime)
  if not next then
    redis.call('DEL', lock, holders)
  elseif not isShare(next) then
    redis.call('DEL', holders)
  end
end
