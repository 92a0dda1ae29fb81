package dev.locksmith.core;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.IntConsumer;

import dev.locksmith.core.LockBackend.LeaseExtension;

/**
 * Watchdog that extends the leases of held locks every {@code ttl / 3}. Every tick renews all due
 * leases in batches, so many held locks cost few store calls; a lease that the store no longer
 * holds for its owner is reported lost.
 */
final class LeaseRenewer implements AutoCloseable {

	/** Most leases renewed by one store call. */
	static final int BATCH_SIZE = 500;

	private static final Logger logger = System.getLogger(LeaseRenewer.class.getName());

	private static final long MIN_RETRY_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

	private final StoreCalls store;

	private final Consumer<DefaultLockHandle> onLost;

	private final IntConsumer onRenewed;

	private final ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(1,
			new DaemonThreadFactory("locksmith-renewal"));

	private final Set<DefaultLockHandle> leases = ConcurrentHashMap.newKeySet();

	private final AtomicLong nextTickNanos = new AtomicLong(Long.MAX_VALUE);

	LeaseRenewer(StoreCalls store, Consumer<DefaultLockHandle> onLost, IntConsumer onRenewed) {
		this.store = store;
		this.onLost = onLost;
		this.onRenewed = onRenewed;
	}

	void register(DefaultLockHandle handle) {
		this.leases.add(handle);
		tickBy(handle.renewalDueNanos(), coalescingWindow(handle));
	}

	void unregister(DefaultLockHandle handle) {
		this.leases.remove(handle);
	}

	/** How many leases are being renewed. */
	int size() {
		return this.leases.size();
	}

	/** How many renewal ticks are scheduled. */
	int pendingTicks() {
		return this.scheduler.getQueue().size();
	}

	@Override
	public void close() {
		this.scheduler.shutdownNow();
	}

	/** Makes sure a tick runs no later than {@code slackNanos} after {@code dueNanos}. */
	private void tickBy(long dueNanos, long slackNanos) {
		long scheduled;
		do {
			scheduled = this.nextTickNanos.get();
			if (scheduled - dueNanos <= slackNanos) {
				return;
			}
		}
		while (!this.nextTickNanos.compareAndSet(scheduled, dueNanos));
		if (!this.scheduler.isShutdown()) {
			this.scheduler.schedule(this::tick, dueNanos - System.nanoTime(), TimeUnit.NANOSECONDS);
		}
	}

	private void tick() {
		this.nextTickNanos.set(Long.MAX_VALUE);
		try {
			List<DefaultLockHandle> due = dueLeases(System.nanoTime());
			for (int from = 0; from < due.size(); from += BATCH_SIZE) {
				renew(due.subList(from, Math.min(due.size(), from + BATCH_SIZE)));
			}
		}
		finally {
			this.leases.stream()
				.mapToLong(DefaultLockHandle::renewalDueNanos)
				.min()
				.ifPresent((earliest) -> tickBy(earliest, 0));
		}
	}

	/** Leases due now, and those due within their coalescing window, renewed early to share a call. */
	private List<DefaultLockHandle> dueLeases(long now) {
		List<DefaultLockHandle> due = new ArrayList<>();
		for (DefaultLockHandle handle : this.leases) {
			if (handle.renewalDueNanos() - now <= coalescingWindow(handle)) {
				due.add(handle);
			}
		}
		return due;
	}

	/** How much earlier than due a lease may be renewed: a sixth of it, still well inside its lease. */
	private static long coalescingWindow(DefaultLockHandle handle) {
		return handle.ttl().toNanos() / 6;
	}

	private void renew(List<DefaultLockHandle> batch) {
		List<LeaseExtension> extensions = batch.stream()
			.flatMap((handle) -> handle.keys()
				.stream()
				.map((key) -> new LeaseExtension(key, handle.ownerToken(), handle.ttl())))
			.toList();
		long sentAt = System.nanoTime();
		try {
			List<Boolean> extended = this.store.extend(extensions);
			int next = 0;
			for (DefaultLockHandle handle : batch) {
				int keys = handle.keys().size();
				recordOutcome(handle, !extended.subList(next, next + keys).contains(false), sentAt);
				next += keys;
			}
			this.onRenewed.accept((int) extended.stream().filter(Boolean::booleanValue).count());
		}
		catch (RuntimeException ex) {
			logger.log(Level.WARNING, "Could not renew " + batch.size() + " leases; retrying while they last", ex);
			batch.forEach(this::retryOrGiveUp);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private void recordOutcome(DefaultLockHandle handle, boolean extended, long sentAt) {
		if (extended) {
			handle.renewed(sentAt);
		}
		else if (handle.isActive()) {
			this.onLost.accept(handle);
		}
	}

	private void retryOrGiveUp(DefaultLockHandle handle) {
		long now = System.nanoTime();
		if (handle.leaseDeadlineNanos() - now <= 0) {
			this.onLost.accept(handle);
		}
		else {
			long retryIn = Math.max(MIN_RETRY_NANOS, handle.ttl().toNanos() / 10);
			handle.retryRenewalAt(now + retryIn);
		}
	}

}
