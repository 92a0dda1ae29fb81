-- Extends many shares' leases in one round trip, each only for its own holder: a holder's renewal
-- never lengthens another's, so a holder that died frees its share when its own lease ends, also while
-- others renew. Appended to hand-on.lua.
-- KEYS[2i-1]   the lock key of share i (all in one hash slot on a cluster)
-- KEYS[2i]     its holders of shares
-- ARGV[3i-2]   owner token '<share>/<token>' of share i
-- ARGV[3i-1]   new lease of share i in milliseconds
-- ARGV[3i]     1 when it is the holder's last lease: the share stays taken that long, but no longer
--              under the holder's token, so no extension that arrives later lengthens it; else 0
-- Returns      for each share, 1 when extended, 0 when its lease ended or the lock is not that share's.
local nowMillis = serverTime()
local extended = {}
for i = 1, #KEYS / 2 do
  local lock, holders, owner = KEYS[2 * i - 1], KEYS[2 * i], ARGV[3 * i - 2]
  local share = shareOf(owner)
  local leaseEnd = tonumber(redis.call('ZSCORE', holders, owner) or '0')
  if redis.call('GET', lock) ~= share or leaseEnd <= nowMillis then
    extended[i] = 0
  else
    local newEnd = nowMillis + tonumber(ARGV[3 * i - 1])
    if ARGV[3 * i] == '1' then
      -- added before the holder's own entry goes, so that the holders never empty (see hand-on.lua)
      redis.call('ZADD', holders, newEnd, owner .. '+released')
      redis.call('ZREM', holders, owner)
    else
      redis.call('ZADD', holders, newEnd, owner)
    end
    keepShared(lock, holders, share, nowMillis)
    extended[i] = 1
  end
end
return extended
