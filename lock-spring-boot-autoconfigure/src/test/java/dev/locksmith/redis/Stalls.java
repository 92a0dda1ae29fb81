package dev.locksmith.redis;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Measures how long this JVM's threads go unscheduled: a daemon thread that parks for 5 ms at a time and
 * records each wake-up later than {@code 20 ms} as a stall. On a starved machine (more runnable threads
 * than cores), stalls of hundreds of milliseconds are what delays answers and resends past their bound.
 */
final class Stalls implements AutoCloseable {

	private static final long TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

	private static final long RECORDED_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

	private final Queue<long[]> stalls = new ConcurrentLinkedQueue<>();

	private final Thread gauge;

	private volatile boolean running = true;

	Stalls() {
		this.gauge = new Thread(this::measure, "stall-gauge");
		this.gauge.setDaemon(true);
		this.gauge.start();
	}

	/** The longest stall that overlapped {@code [fromNanos, toNanos]}, in nanoseconds. */
	long longestBetween(long fromNanos, long toNanos) {
		long longest = 0;
		for (long[] stall : this.stalls) {
			if (stall[0] < toNanos && stall[1] > fromNanos) {
				longest = Math.max(longest, stall[1] - stall[0]);
			}
		}
		return longest;
	}

	private void measure() {
		while (this.running) {
			long parked = System.nanoTime();
			LockSupport.parkNanos(TICK_NANOS);
			long woke = System.nanoTime();
			if (woke - parked - TICK_NANOS > RECORDED_NANOS) {
				this.stalls.add(new long[] { parked + TICK_NANOS, woke });
			}
		}
	}

	@Override
	public void close() throws InterruptedException {
		this.running = false;
		this.gauge.join();
	}

}
