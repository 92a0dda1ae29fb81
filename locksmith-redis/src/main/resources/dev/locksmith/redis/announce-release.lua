-- Tells the waiters of the given locks that an owner freed them: a release notification that hands the
-- locks to nobody (a zero claim lease, no fencing token), for stores whose waiters do not queue
-- (Redlock). The owner token names the release, so that a subscriber of several servers can tell their
-- notices of it apart from another release's.
-- ARGV[1]   owner token that released the locks
-- ARGV[1+i] release channel of a freed lock
-- Returns   how many channels were published to.
for i = 2, #ARGV do
  redis.call('PUBLISH', ARGV[i], '0:0:' .. ARGV[1])
end
return #ARGV - 1
