package dev.locksmith.core;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Calls the {@link LockEventListener}s on a thread of their own, one event at a time, so a slow listener
 * never delays lease renewal.
 * <p>
 * Events wait in a bounded queue and the caller never blocks. Renewal counts are added up while a delivery
 * of them is queued, so they take one place in the queue and none is lost. A lost-lease event that finds
 * the queue full is dropped with a warning: blocking instead would stall the renewal thread behind the
 * listener, which is what this class exists to prevent, and the engine has already logged the loss.
 */
final class LockEventDispatcher implements AutoCloseable {

	/** Most events waiting for delivery. */
	static final int QUEUE_CAPACITY = 1_000;

	private static final Logger logger = System.getLogger(LockEventDispatcher.class.getName());

	private final List<LockEventListener> listeners = new CopyOnWriteArrayList<>();

	private final ThreadPoolExecutor executor = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS,
			new ArrayBlockingQueue<>(QUEUE_CAPACITY), new DaemonThreadFactory("locksmith-events"));

	private final AtomicLong unreportedRenewals = new AtomicLong();

	private final AtomicBoolean renewalsQueued = new AtomicBoolean();

	void add(LockEventListener listener) {
		this.listeners.add(listener);
	}

	void leaseLost(LockLostEvent event) {
		if (!offer(() -> this.listeners.forEach((listener) -> notify(listener, () -> listener.leaseLost(event))))
				&& !this.executor.isShutdown()) {
			logger.log(Level.WARNING, "Did not tell the lock event listeners that the lease of lock '"
					+ KeyMasking.mask(event.name(), event.key()) + "' was lost: " + QUEUE_CAPACITY
					+ " events are waiting already, is a listener blocked?");
		}
	}

	void leasesRenewed(int count) {
		if (count <= 0) {
			return;
		}
		this.unreportedRenewals.addAndGet(count);
		// Cleared by the delivery before it takes the count, so a count added after that queues another.
		if (this.renewalsQueued.compareAndSet(false, true) && !offer(this::reportRenewals)) {
			this.renewalsQueued.set(false);
		}
	}

	/** Stops the event thread once the events already queued are delivered. */
	@Override
	public void close() {
		this.executor.shutdown();
	}

	private void reportRenewals() {
		this.renewalsQueued.set(false);
		long renewed = this.unreportedRenewals.getAndSet(0);
		while (renewed > 0) {
			int count = (int) Math.min(renewed, Integer.MAX_VALUE);
			this.listeners.forEach((listener) -> notify(listener, () -> listener.leasesRenewed(count)));
			renewed -= count;
		}
	}

	private boolean offer(Runnable delivery) {
		try {
			this.executor.execute(delivery);
			return true;
		}
		catch (RejectedExecutionException ex) {
			return false;
		}
	}

	/** Calls one listener; a failing listener is logged and does not stop the engine or the others. */
	private static void notify(LockEventListener listener, Runnable call) {
		try {
			call.run();
		}
		catch (RuntimeException ex) {
			logger.log(Level.WARNING, "Lock event listener " + listener + " failed", ex);
		}
	}

}
