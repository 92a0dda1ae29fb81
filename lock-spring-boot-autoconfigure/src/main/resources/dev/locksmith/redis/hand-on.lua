-- Shared by every script that frees a lock; the scripts that use it are appended to it.
-- A freed lock goes to the first waiter of its queue that is still waiting: the lock is set to that
-- waiter's owner token for a short claim lease, which the waiter turns into its own lease, and the
-- waiter's owner token is published on the lock's channel. Waiters whose deadline passed are dropped.

-- The server's clock in milliseconds, and in microseconds.
local function serverTime()
  local time = redis.call('TIME')
  local seconds, micros = tonumber(time[1]), tonumber(time[2])
  return seconds * 1000 + math.floor(micros / 1000), seconds * 1000000 + micros
end

-- Hands the free lock to the first live waiter; returns whether one took it.
local function handOn(lock, queue, deadlines, channel, claimLease)
  local nowMillis
  while true do
    local head = redis.call('LPOP', queue)
    if not head then
      return false
    end
    nowMillis = nowMillis or serverTime()
    local deadline = tonumber(redis.call('HGET', deadlines, head) or '0')
    redis.call('HDEL', deadlines, head)
    if deadline > nowMillis then
      redis.call('SET', lock, head, 'PX', claimLease)
      redis.call('PUBLISH', channel, claimLease .. ':' .. head)
      return true
    end
  end
end

