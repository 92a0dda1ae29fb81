-- After a refusal in another hash slot, gives back the locks of this slot that a waiter for keys of
-- several slots took or was handed, and parks it in their queues: it keeps its place there, but
-- releases pass it over, until the slot that refused it frees. Appended to hand-on.lua.
-- KEYS[1..n]       the lock keys
-- KEYS[n+1..2n]    their fencing counters
-- KEYS[2n+1..3n]   their wait queues
-- KEYS[3n+1..4n]   the deadlines of their waiters
-- KEYS[4n+1..5n]   their holders of shares, by owner token, scored by the end of each one's lease
-- ARGV[1]          owner token
-- ARGV[2]          claim lease in milliseconds
-- ARGV[3]          how long a fencing counter outlives its last grant, in milliseconds
-- ARGV[4]          how long the caller goes on waiting, in milliseconds
-- ARGV[4+i]        release channel of KEYS[i]
-- ARGV[#ARGV]      'SPUBLISH' or 'PUBLISH': how hand-overs are published (see hand-on.lua)
-- Returns          how many of the locks were given back.
local n = #KEYS / 5
local owner, claimLease, fenceLifetime, queueFor = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4])
local parked = -(serverTime() + queueFor)
local givenBack = 0
for i = 1, n do
  local held = redis.call('GET', KEYS[i]) == owner
  if redis.call('HEXISTS', KEYS[3 * n + i], owner) == 1 or (held and redis.call('EXISTS', KEYS[2 * n + i]) == 1) then
    stand(KEYS[2 * n + i], KEYS[3 * n + i], owner, parked, 'LPUSH', queueFor)
  end
  if held then
    free(KEYS[i], KEYS[n + i], KEYS[2 * n + i], KEYS[3 * n + i], KEYS[4 * n + i],
        ARGV[4 + i], claimLease, fenceLifetime)
    givenBack = givenBack + 1
  elseif redis.call('EXISTS', KEYS[i]) == 0 then
    -- free, and this waiter no longer takes it: the next waiter that can use it does
    handOn(KEYS[i], KEYS[n + i], KEYS[2 * n + i], KEYS[3 * n + i], KEYS[4 * n + i],
          ARGV[4 + i], claimLease, fenceLifetime)
  end
end
return givenBack
