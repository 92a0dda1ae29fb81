package dev.locksmith.core;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.IntConsumer;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;

import dev.locksmith.core.LockStore.LeaseExtension;

/**
 * Watchdog that extends the leases of held locks every {@code ttl / 3}. One tick at a time is pending,
 * for the earliest due lease; it renews all due leases in batches, so many held locks cost few store
 * calls. A lease that the store no longer holds for its owner is reported lost. The leases it renews
 * are those in the registry of held locks acquired to be renewed: it keeps no set of its own.
 */
final class LeaseRenewer implements Renewal {

	/** Most leases renewed by one store call. */
	static final int BATCH_SIZE = 500;

	private static final long MIN_RETRY_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

	private final OutageLog outages = new OutageLog(System.getLogger(LeaseRenewer.class.getName()),
			"Renewing leases again");

	private final StoreCalls store;

	private final Consumer<DefaultLockHandle> onLost;

	private final IntConsumer onRenewed;

	private final ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(1,
			new DaemonThreadFactory("locksmith-renewal"));

	private final HeldLocks held;

	/*
	 * At most one tick is pending, so the renewal thread's work follows the leases held, not their history.
	 *
	 * Invariant (guarded by `scheduling`): while no tick is running, every lease renewed (`leases()`) has the pending
	 * tick due no later than its renewal due time plus its coalescing window. It holds because:
	 * - schedule(due, slack) keeps the pending tick only if it is due by due + slack, else replaces it with
	 *   one due at due: a pending tick is only ever replaced by an earlier one, never just dropped;
	 * - a lease is in the registry before register() calls schedule();
	 * - a running tick first withdraws itself as the pending tick, then renews, and last scans the leases and
	 *   schedules the next tick for the earliest due time it finds.
	 * So a register() racing a tick loses no wake-up: if the tick's closing scan missed the new lease, the
	 * lease was added after the tick withdrew itself, and register()'s schedule() comes later still, so it
	 * finds no pending tick, or one it keeps because it is early enough, or one it replaces.
	 * A tick replaced just as it started (cancel cannot stop a task the scheduler has begun) finds it is no
	 * longer the pending tick and does nothing, so it never withdraws its replacement.
	 * Due times move on this thread (renewal, retry) before the closing scan, or on a caller's thread that
	 * extended a lease, which then calls rescheduled(); a lease that is released or lost is only removed,
	 * which can at most leave a tick that runs early and finds nothing due.
	 */
	private final ReentrantLock scheduling = new ReentrantLock();

	private volatile @Nullable Tick pending;

	private @Nullable ScheduledFuture<?> pendingFuture;

	LeaseRenewer(StoreCalls store, HeldLocks held, Consumer<DefaultLockHandle> onLost, IntConsumer onRenewed) {
		this.store = store;
		this.held = held;
		this.onLost = onLost;
		this.onRenewed = onRenewed;
		this.scheduler.setRemoveOnCancelPolicy(true);
	}

	/** Renews {@code handle}, which the registry of held locks holds already. */
	@Override
	public void register(DefaultLockHandle handle) {
		schedule(handle.renewalDueNanos(), coalescingWindow(handle));
	}

	/** Renews the handed lock like any other: due at once, the renewal thread extends the claim to the full lease. */
	@Override
	public void claimHanded(DefaultLockHandle handle, long toldAtNanos) {
		register(handle);
	}

	/** The renewal of a registered lease fell due earlier (it was extended by less): a tick comes in time. */
	@Override
	public void rescheduled(DefaultLockHandle handle) {
		if (handle.isActive()) {
			schedule(handle.renewalDueNanos(), coalescingWindow(handle));
		}
	}

	/** Nothing to do: a lock released or lost leaves the registry of held locks, and so the leases renewed. */
	@Override
	public void unregister(DefaultLockHandle handle) {
	}

	/** How many leases are being renewed. */
	int size() {
		return (int) leases().count();
	}

	/** The leases renewed: those of the locks held that were acquired to be renewed. */
	private Stream<DefaultLockHandle> leases() {
		return this.held.renewed();
	}

	/** How many renewal ticks are scheduled. */
	int pendingTicks() {
		return this.scheduler.getQueue().size();
	}

	@Override
	public void close() {
		this.scheduling.lock();
		try {
			this.scheduler.shutdownNow();
			this.pending = null;
			this.pendingFuture = null;
		}
		finally {
			this.scheduling.unlock();
		}
	}

	/** Makes sure the pending tick runs no later than {@code slackNanos} after {@code dueNanos}. */
	private void schedule(long dueNanos, long slackNanos) {
		Tick scheduled = this.pending;
		if (scheduled != null && scheduled.dueNanos - dueNanos <= slackNanos) {
			// Read without the lock: a tick that withdraws meanwhile scans all leases when it ends, this one included.
			return;
		}
		this.scheduling.lock();
		try {
			if (this.pending != null && this.pending.dueNanos - dueNanos <= slackNanos) {
				return;
			}
			if (this.scheduler.isShutdown()) {
				return;
			}
			if (this.pendingFuture != null) {
				this.pendingFuture.cancel(false);
			}
			Tick tick = new Tick(dueNanos);
			this.pendingFuture = this.scheduler.schedule(tick, dueNanos - System.nanoTime(), TimeUnit.NANOSECONDS);
			this.pending = tick;
		}
		finally {
			this.scheduling.unlock();
		}
	}

	private void tick(Tick tick) {
		this.scheduling.lock();
		try {
			if (this.pending != tick) {
				return;
			}
			this.pending = null;
			this.pendingFuture = null;
		}
		finally {
			this.scheduling.unlock();
		}
		try {
			List<DefaultLockHandle> due = dueLeases(System.nanoTime());
			for (int from = 0; from < due.size(); from += BATCH_SIZE) {
				renew(due.subList(from, Math.min(due.size(), from + BATCH_SIZE)));
			}
		}
		finally {
			leases().mapToLong(DefaultLockHandle::renewalDueNanos)
				.min()
				.ifPresent((earliest) -> schedule(earliest, 0));
		}
	}

	/** Leases due now, and those due within their coalescing window, renewed early to share a call. */
	private List<DefaultLockHandle> dueLeases(long now) {
		return leases().filter((handle) -> handle.renewalDueNanos() - now <= coalescingWindow(handle)).toList();
	}

	/**
	 * How much earlier or later than due a lease may be renewed: a sixth of its ttl, still well inside its
	 * lease, but never more than half of what is left after its due time of the lease it holds now (a lock
	 * handed over holds only a short claim lease until its first renewal).
	 */
	private static long coalescingWindow(DefaultLockHandle handle) {
		long leftAfterDue = handle.leaseDeadlineNanos() - handle.renewalDueNanos();
		return Math.max(0, Math.min(handle.ttl().toNanos() / 6, leftAfterDue / 2));
	}

	/**
	 * Renews a batch; each lease counts only its own answers, so a part of the store that fails or stalls
	 * holds up the leases it keeps and no other.
	 */
	private void renew(List<DefaultLockHandle> batch) {
		List<LeaseExtension> extensions = batch.stream()
			.flatMap((handle) -> handle.extensions(handle.ttl(), false).stream())
			.toList();
		long sentAt = System.nanoTime();
		List<CompletableFuture<Boolean>> answers;
		try {
			answers = this.store.extendEach(extensions);
		}
		catch (RuntimeException ex) {
			batch.forEach((handle) -> retryOrGiveUp(handle, ex));
			return;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return;
		}
		int next = 0;
		boolean allAnswered = true;
		for (DefaultLockHandle handle : batch) {
			List<CompletableFuture<Boolean>> own = answers.subList(next, next + handle.keys().size());
			next += own.size();
			if (own.stream().allMatch(StoreCalls::answered)) {
				recordOutcome(handle, own.stream().allMatch(CompletableFuture::join), sentAt);
			}
			else {
				allAnswered = false;
				retryOrGiveUp(handle, firstFailure(own));
			}
		}
		if (allAnswered) {
			this.outages.answered();
		}
		this.onRenewed.accept((int) answers.stream().filter((answer) -> StoreCalls.answered(answer) && answer.join()).count());
	}

	/** Why some of {@code answers} did not come: the first failure, else the timeout they outlasted. */
	private static Throwable firstFailure(List<CompletableFuture<Boolean>> answers) {
		return answers.stream()
			.filter(CompletableFuture::isCompletedExceptionally)
			.map((answer) -> answer.handle((extended, failure) -> failure).join())
			.findFirst()
			.orElseGet(() -> new TimeoutException("timed out"));
	}

	private void recordOutcome(DefaultLockHandle handle, boolean extended, long sentAt) {
		if (extended) {
			handle.renewed(sentAt);
		}
		else if (handle.isActive()) {
			this.onLost.accept(handle);
		}
	}

	/** After a renewal that failed with {@code failure}, logged once per lock name and outage (see {@link OutageLog}). */
	private void retryOrGiveUp(DefaultLockHandle handle, Throwable failure) {
		String name = KeyMasking.mask(handle.name(), handle.key());
		this.outages.failed(name, "Could not renew the lease of lock '" + name + "'; retrying while it lasts", failure);
		long now = System.nanoTime();
		if (handle.leaseDeadlineNanos() - now <= 0) {
			this.onLost.accept(handle);
		}
		else {
			long leaseLeft = handle.leaseDeadlineNanos() - now;
			long retryIn = Math.max(MIN_RETRY_NANOS, Math.min(handle.ttl().toNanos() / 10, leaseLeft / 3));
			handle.retryRenewalAt(now + retryIn);
		}
	}

	/** One scheduled run of the watchdog, due at {@code dueNanos}. */
	private final class Tick implements Runnable {

		private final long dueNanos;

		private Tick(long dueNanos) {
			this.dueNanos = dueNanos;
		}

		@Override
		public void run() {
			tick(this);
		}

	}

}
