package dev.locksmith.core;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The {@link Renewal} of locks that nobody renews: their leases run out unless extended on request, and
 * a lock still held when its lease ends is lost. A lock handed over under a claim lease is extended to
 * its full lease once, in the background.
 */
final class NoRenewal implements Renewal {

	/** The engine's log, under the name applications configure it by. */
	private static final Logger logger = System.getLogger(DefaultLockService.class.getName());

	private final StoreCalls store;

	private final Consumer<DefaultLockHandle> onLost;

	private final ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(1,
			new DaemonThreadFactory("locksmith-lease-end"));

	/** The check at the end of each watched lease; cancelled when its lock is released. */
	private final Map<DefaultLockHandle, ScheduledFuture<?>> leaseEnds = new ConcurrentHashMap<>();

	NoRenewal(StoreCalls store, Consumer<DefaultLockHandle> onLost) {
		this.store = store;
		this.onLost = onLost;
		this.scheduler.setRemoveOnCancelPolicy(true);
	}

	@Override
	public void register(DefaultLockHandle handle) {
		watch(handle);
	}

	/** Extends the handed lock's claim to what is left of its full lease, without waiting for the answer. */
	@Override
	public void claimHanded(DefaultLockHandle handle, long toldAtNanos) {
		watch(handle);
		long sentAt = System.nanoTime();
		// What is left of the lease since the hand-over: a late extension never keeps the lock longer.
		Duration left = handle.ttl().minusNanos(sentAt - toldAtNanos);
		Duration ttl = (left.toMillis() < 1) ? Duration.ofMillis(1) : left;
		this.store.extendInBackground(handle.extensions(ttl, false)).whenComplete((extended, failure) -> {
			if (failure == null && extended) {
				handle.leaseStarted(sentAt, ttl);
				// a lease shorter than the claim ends first: looked at when it ends, not when the claim would
				watch(handle);
				return;
			}
			if (failure != null) {
				logger.log(Level.WARNING, "Could not extend the claim of lock '" + KeyMasking.mask(handle.name(), handle.key())
						+ "' to its lease; it is counted as lost", failure);
			}
			this.onLost.accept(handle);
		});
	}

	@Override
	public void rescheduled(DefaultLockHandle handle) {
		if (this.leaseEnds.containsKey(handle)) {
			watch(handle);
		}
	}

	@Override
	public void unregister(DefaultLockHandle handle) {
		ScheduledFuture<?> leaseEnd = this.leaseEnds.remove(handle);
		if (leaseEnd != null) {
			leaseEnd.cancel(false);
		}
	}

	/** Stops watching; events of leases that ended already are still delivered. */
	@Override
	public void close() {
		this.scheduler.shutdownNow();
		this.leaseEnds.clear();
	}

	/** Looks at the lock when its lease ends, replacing an earlier look. */
	private void watch(DefaultLockHandle handle) {
		ScheduledFuture<?> leaseEnd;
		try {
			leaseEnd = this.scheduler.schedule(() -> leaseEnded(handle), handle.leaseDeadlineNanos() - System.nanoTime(),
					TimeUnit.NANOSECONDS);
		}
		catch (RejectedExecutionException ex) {
			// Closed: locks still held expire after their lease, unwatched.
			return;
		}
		ScheduledFuture<?> replaced = this.leaseEnds.put(handle, leaseEnd);
		if (replaced != null) {
			replaced.cancel(false);
		}
		if (!handle.isActive()) {
			// Released meanwhile: its unregister() may have come before this look was put in.
			unregister(handle);
		}
	}

	/** A lock extended meanwhile is looked at again when its new lease ends; one still held past its lease is lost. */
	private void leaseEnded(DefaultLockHandle handle) {
		if (!handle.isActive()) {
			this.leaseEnds.remove(handle);
		}
		else if (handle.isHeld()) {
			watch(handle);
		}
		else {
			this.leaseEnds.remove(handle);
			this.onLost.accept(handle);
		}
	}

}
