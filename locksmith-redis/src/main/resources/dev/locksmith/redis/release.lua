-- Releases locks only for their owner, or takes a waiter that gives up out of the queues, and hands
-- each freed lock to its first waiter that can use it, or within the cohort bound to a waiter of the
-- owner's own process (see hand-on.lua), in one round trip. Appended to hand-on.lua.
-- KEYS[1..n]       the lock keys
-- KEYS[n+1..2n]    their fencing counters
-- KEYS[2n+1..3n]   their wait queues
-- KEYS[3n+1..4n]   the deadlines of their waiters
-- KEYS[4n+1..5n]   their holders of shares, by owner token, scored by the end of each one's lease
-- ARGV[1]          owner token
-- ARGV[2]          claim lease in milliseconds
-- ARGV[3]          how long a fencing counter outlives its last grant, in milliseconds
-- ARGV[4]          most passes in a row to a waiter of the owner's own process ahead of the first waiter
--                  (the cohort hand-over, see hand-on.lua); 0 = in arrival order
-- ARGV[4+i]        release channel of KEYS[i]
-- ARGV[#ARGV]      'SPUBLISH' or 'PUBLISH': how hand-overs are published (see hand-on.lua)
-- Returns          {released, channel, message, ...}: how many of the locks were released (the others
--                  are gone or held by another owner), then each hand-over the release published.
-- An owner waits for a lock or holds it, never both: a holder frees the lock, and only an owner that
-- does not hold it leaves the queue (which may empty it), so no run touches the same queue twice.
local n = #KEYS / 5
local owner, claimLease, fenceLifetime = ARGV[1], ARGV[2], ARGV[3]
local cohort = cohortOf(owner, tonumber(ARGV[4]))
local released = 0
for i = 1, n do
  if redis.call('GET', KEYS[i]) == owner then
    free(KEYS[i], KEYS[n + i], KEYS[2 * n + i], KEYS[3 * n + i], KEYS[4 * n + i],
        ARGV[4 + i], claimLease, fenceLifetime, cohort)
    released = released + 1
  elseif redis.call('HDEL', KEYS[3 * n + i], owner) == 1 then
    redis.call('LREM', KEYS[2 * n + i], 0, owner)
  end
end
local answer = {released}
for _, item in ipairs(handOvers) do
  answer[#answer + 1] = item
end
return answer
