-- Records that a holder entered the critical section of one lock, and counts an overlap when the
-- holders now inside break the lock's mode: a writer with anyone, or more shares than its permits.
-- KEYS[1]  how many writers are inside
-- KEYS[2]  how many shares (readers or permit holders) are inside
-- KEYS[3]  the checker's counters of the lock (a hash): sections, overlaps, most-shares
-- ARGV[1]  'write', or the most shares allowed inside at once; 0 = any number of readers
-- Returns  how many holders are inside, this one included
local writers, shares, stats = KEYS[1], KEYS[2], KEYS[3]
local inside
local broken
if ARGV[1] == 'write' then
  inside = redis.call('INCR', writers) + tonumber(redis.call('GET', shares) or '0')
  broken = inside > 1
else
  local sharing = redis.call('INCR', shares)
  local limit = tonumber(ARGV[1])
  inside = sharing + tonumber(redis.call('GET', writers) or '0')
  broken = inside > sharing or (limit > 0 and sharing > limit)
  if sharing > tonumber(redis.call('HGET', stats, 'most-shares') or '0') then
    redis.call('HSET', stats, 'most-shares', sharing)
  end
end
if broken then
  redis.call('HINCRBY', stats, 'overlaps', 1)
end
redis.call('HINCRBY', stats, 'sections', 1)
return inside
