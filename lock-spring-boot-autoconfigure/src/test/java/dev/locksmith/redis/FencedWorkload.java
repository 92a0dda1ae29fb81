package dev.locksmith.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockService;
import dev.locksmith.testing.RedisServer;

import static org.awaitility.Awaitility.await;

/**
 * The fault suite's fenced read-modify-write workload in this JVM: two threads per lock service lock
 * one of the {@link Checker#KEYS accounts} at random and increment its fenced counter, refereed by a
 * checker on a Redis of its own that no fault touches.
 */
final class FencedWorkload implements AutoCloseable {

	private final RedisServer checkerServer = RedisServer.start();

	private final Checker checker = new Checker(this.checkerServer.port());

	private final List<Thread> threads = new ArrayList<>();

	/** Starts two threads per service, each locking with {@code options}. */
	FencedWorkload(List<? extends LockService> services, LockOptions options) {
		this(services, options, (operation, key, startedAt, failure) -> {
		});
	}

	/** Starts two threads per service, each locking with {@code options} and telling {@code failures} of failed calls. */
	FencedWorkload(List<? extends LockService> services, LockOptions options, FencedCounterWorker.FailedCalls failures) {
		for (LockService service : services) {
			for (int i = 0; i < 2; i++) {
				Thread thread = new Thread(() -> FencedCounterWorker.work(service, options, this.checker, failures),
						"fenced-workload-" + this.threads.size());
				this.threads.add(thread);
				thread.start();
			}
		}
	}

	Checker checker() {
		return this.checker;
	}

	/** The checker's counters now (see {@link Checker#snapshot()}). */
	Map<String, Long> snapshot() {
		return this.checker.snapshot();
	}

	long accepted() {
		return snapshot().getOrDefault("accepted", 0L);
	}

	/** Waits until {@code count} more writes were accepted. */
	void awaitMoreWrites(int count) {
		long target = accepted() + count;
		await().atMost(Duration.ofMinutes(1)).until(() -> accepted() >= target);
	}

	/**
	 * Waits until a holder of {@code account}'s lock granted after {@code since} (a {@link System#nanoTime()})
	 * read its counter, that is until the counter sees a fencing token higher than any it saw before.
	 * @return the time from {@code since} until then
	 */
	Duration awaitNewGrant(String account, long since, long seenBefore) {
		await().atMost(Duration.ofMinutes(1))
			.pollInterval(Duration.ofMillis(5))
			.until(() -> this.checker.seen(account) > seenBefore);
		return Duration.ofNanos(System.nanoTime() - since);
	}

	/** Stops the workers once their current lock call ends, and interrupts those still waiting after a minute. */
	@Override
	public void close() throws InterruptedException {
		this.checker.stopWorkers();
		long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
		for (Thread thread : this.threads) {
			thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
			thread.interrupt();
		}
		this.checker.close();
		this.checkerServer.close();
	}

}
