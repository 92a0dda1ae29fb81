-- Records that a worker entered the critical section of a key, and whether someone else was inside.
-- KEYS[1]  how many workers are inside the critical section of the key
-- KEYS[2]  the checker's counters (a hash)
if redis.call('INCR', KEYS[1]) > 1 then
  redis.call('HINCRBY', KEYS[2], 'overlaps', 1)
end
redis.call('HINCRBY', KEYS[2], 'sections', 1)
return 1
