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
			workOnTwoThreads(worker.locks, checker);
		}
		System.exit(0);
	}

	/** Works as {@link #work(LockService, LockOptions, Checker)} on two threads, until told to stop. */
	static void workOnTwoThreads(LockService locks, Checker checker) throws InterruptedException {
		Thread[] threads = new Thread[2];
		for (int i = 0; i < threads.length; i++) {
			threads[i] = new Thread(() -> work(locks, OPTIONS, checker), "fenced-worker-" + i);
			threads[i].start();
		}
		for (Thread thread : threads) {
			thread.join();
		}
	}

	/** Locks a random account with {@code options} and increments its counter, fenced, until told to stop. */
	static void work(LockService locks, LockOptions options, Checker checker) {
		work(locks, options, checker, (operation, key, startedAt, failure) -> {
		});
	}

	/** Works as {@link #work(LockService, LockOptions, Checker)}, telling {@code failures} of each call that failed. */
	static void work(LockService locks, LockOptions options, Checker checker, FailedCalls failures) {
		while (!checker.stopped()) {
			String key = Checker.KEYS.get(ThreadLocalRandom.current().nextInt(Checker.KEYS.size()));
			String operation = "acquire";
			long startedAt = System.nanoTime();
			try (LockHandle lock = locks.acquire(key, options)) {
				operation = "fenced read and write";
				startedAt = System.nanoTime();
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
				failures.failed(operation, key, startedAt, ex);
				checker.count("unavailable");
			}
			catch (InterruptedException ex) {
				return;
			}
			catch (RuntimeException ex) {
				ex.printStackTrace();
				failures.failed(operation, key, startedAt, ex);
				checker.count("unexpected");
			}
		}
	}

	/** Told of each lock call or fenced write of the workload that failed. */
	@FunctionalInterface
	interface FailedCalls {

		/**
		 * {@code operation} ("acquire", or "fenced read and write" once the lock was held) on {@code key},
		 * started at {@code startedAt} ({@link System#nanoTime()}), failed with {@code failure}.
		 */
		void failed(String operation, String key, long startedAt, RuntimeException failure);

	}

}
