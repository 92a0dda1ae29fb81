package dev.locksmith.benchmarks.scenario;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.locksmith.benchmarks.BenchSettings;
import dev.locksmith.benchmarks.lock.BenchLock;
import dev.locksmith.benchmarks.lock.HoldableLock;
import dev.locksmith.benchmarks.lock.Library;

/**
 * Memory of held locks and of waiters, in this JVM's heap and in Redis, at each size of the
 * settings: one thread holds many locks; or many threads wait for one held lock, measured over as
 * many threads parked on a latch, so that the threads themselves do not count. Each size starts on
 * a flushed Redis. Libraries whose locks cannot be held outside a section do not take part.
 */
public final class Footprint implements Scenario<FootprintFigures> {

	private static final String WANTED = "bench:wanted";

	/** How long waiters get to queue, on top of a millisecond each. */
	private static final Duration SETTLE = Duration.ofSeconds(1);

	private static final Duration ALLOWANCE = Duration.ofMinutes(2);

	private final BenchSettings settings;

	private final RedisProbe probe;

	public Footprint(BenchSettings settings, RedisProbe probe) {
		this.settings = settings;
		this.probe = probe;
	}

	@Override
	public String title() {
		return "Memory per held lock and per waiter";
	}

	@Override
	public Optional<FootprintFigures> measure(Library library, BenchLock lock) throws Exception {
		if (!(lock instanceof HoldableLock holdable)) {
			return Optional.empty();
		}
		Curve<Bytes> held = curve(this.settings.heldLocks(), (count) -> holdMany(holdable, count));
		Curve<Bytes> waiters = curve(this.settings.waiters(), (count) -> waitMany(holdable, count));
		return Optional.of(new FootprintFigures(held, waiters));
	}

	/**
	 * Measures each count on a flushed Redis, after a round at the smallest count that is not
	 * kept, so that what a library creates on first use (a subscription, a pool) is not counted.
	 */
	private Curve<Bytes> curve(List<Integer> counts, Measurement measurement) throws Exception {
		SortedMap<Integer, Bytes> points = new TreeMap<>();
		this.probe.flush();
		Workers.runOne(() -> measurement.at(counts.get(0)), ALLOWANCE);
		for (int count : counts) {
			this.probe.flush();
			points.put(count, Workers.runOne(() -> measurement.at(count), ALLOWANCE));
		}
		return new Curve<>(points);
	}

	/** Holds {@code count} locks on this thread; the caller's handles count, as a user keeps them too. */
	private Bytes holdMany(HoldableLock lock, int count) throws Exception {
		long heapBefore = HeapMeter.retainedBytes();
		long redisBefore = this.probe.keyBytes();
		List<HoldableLock.Release> held = new ArrayList<>(count);
		try {
			for (int i = 0; i < count; i++) {
				held.add(lock.hold("bench:held:" + i));
			}
			return new Bytes(HeapMeter.retainedBytes() - heapBefore, this.probe.keyBytes() - redisBefore);
		}
		finally {
			held.forEach(HoldableLock.Release::close);
		}
	}

	private Bytes waitMany(HoldableLock lock, int count) throws Exception {
		List<Thread> waiters = new ArrayList<>(count);
		HoldableLock.Release wanted = lock.hold(WANTED);
		try {
			long heapOfIdleThreads = idleThreadsHeap(count);
			long redisBefore = this.probe.keyBytes();
			CountDownLatch asking = new CountDownLatch(count);
			for (int i = 0; i < count; i++) {
				waiters.add(daemon(() -> {
					asking.countDown();
					try {
						lock.runLocked(WANTED, () -> {
						});
					}
					catch (Exception ex) {
						throw new IllegalStateException(ex);
					}
				}));
			}
			asking.await();
			Thread.sleep(SETTLE.plusMillis(count).toMillis());
			return new Bytes(HeapMeter.retainedBytes() - heapOfIdleThreads, this.probe.keyBytes() - redisBefore);
		}
		finally {
			wanted.close();
			long deadline = System.nanoTime() + ALLOWANCE.toNanos();
			for (Thread waiter : waiters) {
				waiter.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
				if (waiter.isAlive()) {
					throw new IllegalStateException("a waiter did not get the lock within " + ALLOWANCE);
				}
			}
		}
	}

	/** Retained heap while {@code count} threads are parked on a latch, as the waiters' threads will be. */
	private static long idleThreadsHeap(int count) throws InterruptedException {
		CountDownLatch parked = new CountDownLatch(count);
		CountDownLatch release = new CountDownLatch(1);
		List<Thread> threads = new ArrayList<>(count);
		for (int i = 0; i < count; i++) {
			threads.add(daemon(() -> {
				parked.countDown();
				awaitQuietly(release);
			}));
		}
		parked.await();
		long heap = HeapMeter.retainedBytes();
		release.countDown();
		for (Thread thread : threads) {
			thread.join(TimeUnit.MINUTES.toMillis(1));
		}
		return heap;
	}

	/** Measures the memory of one count of held locks or of waiters. */
	private interface Measurement {

		Bytes at(int count) throws Exception;

	}

	private static Thread daemon(Runnable work) {
		Thread thread = new Thread(work, "bench-footprint");
		thread.setDaemon(true);
		thread.start();
		return thread;
	}

	private static void awaitQuietly(CountDownLatch latch) {
		try {
			latch.await();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
