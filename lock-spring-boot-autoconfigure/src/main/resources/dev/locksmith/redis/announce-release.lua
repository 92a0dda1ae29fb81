-- Tells every waiter of the given locks to look again now: a release notification that hands the lock
-- to nobody (no claim lease, no fencing token, no owner token), for stores whose waiters do not queue (Redlock).
-- ARGV[i]   release channel of a freed lock
-- Returns   how many channels were published to.
for i = 1, #ARGV do
  redis.call('PUBLISH', ARGV[i], '0:0:')
end
return #ARGV
