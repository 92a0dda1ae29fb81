package dev.locksmith.core;

import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * FIFO queues of this process's threads waiting for busy locks, one queue a key. A waiter for several
 * keys stands in the queue of each and asks the store only when it is first in all of them; a
 * release notification wakes the first waiter of the released key. Joining and leaving are
 * serialized so that waiters for overlapping key sets never queue in opposite orders. Built on
 * {@link Semaphore} and {@link ReentrantLock}: waiting is interruptible and never pins a virtual thread.
 */
final class WaitQueues {

	private final Map<String, Deque<Waiter>> queues = new ConcurrentHashMap<>();

	private final ReentrantLock membership = new ReentrantLock();

	Waiter join(List<String> keys) {
		Waiter waiter = new Waiter(keys);
		this.membership.lock();
		try {
			keys.forEach((key) -> this.queues.computeIfAbsent(key, (k) -> new ConcurrentLinkedDeque<>()).addLast(waiter));
		}
		finally {
			this.membership.unlock();
		}
		return waiter;
	}

	boolean isFirst(Waiter waiter) {
		for (String key : waiter.keys) {
			Deque<Waiter> queue = this.queues.get(key);
			if (queue == null || queue.peekFirst() != waiter) {
				return false;
			}
		}
		return true;
	}

	/** Removes the waiter; when it leaves without the locks, the next waiters are woken to try at once. */
	void leave(Waiter waiter, boolean acquired) {
		this.membership.lock();
		try {
			for (String key : waiter.keys) {
				Deque<Waiter> queue = this.queues.get(key);
				queue.remove(waiter);
				if (queue.isEmpty()) {
					this.queues.remove(key);
				}
			}
		}
		finally {
			this.membership.unlock();
		}
		if (!acquired) {
			waiter.keys.forEach(this::wakeFirst);
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

		private final List<String> keys;

		private final Semaphore signal = new Semaphore(0);

		private Waiter(List<String> keys) {
			this.keys = keys;
		}

		/** Waits until woken or until {@code nanos} have passed. */
		void await(long nanos) throws InterruptedException {
			if (this.signal.tryAcquire(nanos, TimeUnit.NANOSECONDS)) {
				this.signal.drainPermits();
			}
		}

	}

}
