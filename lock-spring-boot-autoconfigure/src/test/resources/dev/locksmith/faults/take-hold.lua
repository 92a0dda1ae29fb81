-- Makes the calling thread the one that stays inside, when its process was asked to hold one there and
-- no other thread of it took that hold yet: the process's other threads then go on as usual.
-- KEYS[1]  the process's hold: "1" when asked, "taken" once a thread stays inside
-- KEYS[2]  the key the staying thread is inside of
-- ARGV[1]  the key the calling thread is inside of
-- Returns  1 when the calling thread must stay inside, else 0.
if redis.call('GET', KEYS[1]) == '1' then
  redis.call('SET', KEYS[1], 'taken')
  redis.call('SET', KEYS[2], ARGV[1])
  return 1
end
return 0
