package dev.locksmith.redis;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

import dev.locksmith.core.LockBusyException;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockService;
import dev.locksmith.core.LockUnavailableException;

/**
 * A worker JVM of the fault suite: until told to stop, two threads lock a random account and do a
 * fenced read-modify-write of its counter, reporting every entry, exit and failure to the checker.
 * Arguments: lock Redis port, checker Redis port.
 */
public final class FencedCounterWorker {

	static final Duration TTL = Duration.ofSeconds(2);

	static final Duration REDIS_TIMEOUT = Duration.ofMillis(500);

	private static final LockOptions OPTIONS = LockOptions.ofTtl(TTL).withWaitTime(Duration.ofSeconds(1));

	private FencedCounterWorker() {
	}

	public static void main(String[] args) throws Exception {
		try (WorkerLocks worker = new WorkerLocks(Integer.parseInt(args[0]), REDIS_TIMEOUT);
				Checker checker = new Checker(Integer.parseInt(args[1]))) {
			Thread[] threads = new Thread[2];
			for (int i = 0; i < threads.length; i++) {
				threads[i] = new Thread(() -> work(worker.locks, OPTIONS, checker), "fenced-worker-" + i);
				threads[i].start();
			}
			for (Thread thread : threads) {
				thread.join();
			}
		}
		System.exit(0);
	}

	/** Locks a random account with {@code options} and increments its counter, fenced, until told to stop. */
	static void work(LockService locks, LockOptions options, Checker checker) {
		while (!checker.stopped()) {
			String key = Checker.KEYS.get(ThreadLocalRandom.current().nextInt(Checker.KEYS.size()));
			try (LockHandle lock = locks.acquire(key, options)) {
				checker.enter(key);
				try {
					long value = checker.read(key, lock.fencingToken());
					if (value >= 0) {
						checker.awaitLeaveToGoOn(key);
						if (!lock.isHeld()) {
							checker.count("lost-leases-seen");
						}
						checker.write(key, value + 1, lock.fencingToken());
					}
				}
				finally {
					checker.exit(key);
				}
			}
			catch (LockBusyException ex) {
				checker.count("busy");
			}
			catch (LockUnavailableException ex) {
				checker.count("unavailable");
			}
			catch (InterruptedException ex) {
				return;
			}
			catch (RuntimeException ex) {
				ex.printStackTrace();
				checker.count("unexpected");
			}
		}
	}

}
