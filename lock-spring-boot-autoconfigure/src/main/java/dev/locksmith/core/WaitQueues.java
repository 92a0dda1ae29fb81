package dev.locksmith.core;

import java.util.Deque;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * FIFO queues of this process's threads waiting for busy locks, one queue a key. Only the head of a
 * queue asks the store for the lock; a release notification wakes it. Built on {@link Semaphore},
 * so waiting is interruptible and never pins a virtual thread.
 */
final class WaitQueues {

	private final ConcurrentHashMap<String, Deque<Waiter>> queues = new ConcurrentHashMap<>();

	Waiter join(String key) {
		Waiter waiter = new Waiter(key);
		this.queues.compute(key, (k, queue) -> {
			Deque<Waiter> joined = (queue != null) ? queue : new ConcurrentLinkedDeque<>();
			joined.addLast(waiter);
			return joined;
		});
		return waiter;
	}

	boolean isFirst(Waiter waiter) {
		Deque<Waiter> queue = this.queues.get(waiter.key);
		return queue != null && queue.peekFirst() == waiter;
	}

	/**
	 * Removes the waiter; when it leaves without the lock, the next waiter is woken to try at once.
	 */
	void leave(Waiter waiter, boolean acquired) {
		this.queues.computeIfPresent(waiter.key, (k, queue) -> {
			queue.remove(waiter);
			return queue.isEmpty() ? null : queue;
		});
		if (!acquired) {
			wakeFirst(waiter.key);
		}
	}

	/** Wakes the first waiter of {@code key}, after the lock was released. */
	void wakeFirst(String key) {
		Deque<Waiter> queue = this.queues.get(key);
		Waiter first = (queue != null) ? queue.peekFirst() : null;
		if (first != null) {
			first.signal.release();
		}
	}

	/** One waiting thread. */
	static final class Waiter {

		private final String key;

		private final Semaphore signal = new Semaphore(0);

		private Waiter(String key) {
			this.key = key;
		}

		/** Waits until woken or until {@code nanos} have passed. */
		void await(long nanos) throws InterruptedException {
			if (this.signal.tryAcquire(nanos, TimeUnit.NANOSECONDS)) {
				this.signal.drainPermits();
			}
		}

	}

}
