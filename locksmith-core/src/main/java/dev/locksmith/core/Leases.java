package dev.locksmith.core;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import dev.locksmith.core.Waiters.HandedLock;
import dev.locksmith.core.observation.LockOutcome;

/**
 * The leases of the locks this process was granted, from the grant to their end: registers each lock
 * and hands it to its {@link Renewal}, extends leases on request, and ends them by release or loss,
 * telling the listeners of each loss.
 */
final class Leases implements AutoCloseable {

	/** The engine's log, under the name applications configure it by. */
	private static final Logger logger = System.getLogger(DefaultLockService.class.getName());

	private final StoreCalls store;

	private final Duration driftAllowance;

	private final LockObservations observations;

	private final Releases releases;

	private final HeldLocks held = new HeldLocks();

	private final HoldDurations holdDurations = new HoldDurations();

	private final LockEventDispatcher events = new LockEventDispatcher();

	private final Renewal noRenewal;

	private final Renewal renewal;

	/**
	 * @param renewing whether the leases of locks acquired with {@link LockOptions#renew()} are renewed
	 * @param driftAllowance how much earlier than the store this process counts a lease as ended
	 */
	Leases(StoreCalls store, boolean renewing, Duration driftAllowance, LockObservations observations) {
		this.store = store;
		this.driftAllowance = driftAllowance;
		this.observations = observations;
		this.releases = new Releases(store);
		this.noRenewal = new NoRenewal(store, this::lost);
		this.renewal = renewing ? new LeaseRenewer(store, this.held, this::lost, this.events::leasesRenewed) : this.noRenewal;
	}

	/** Registers the locks the store granted for {@code request}, under its full lease, sent at {@code sentAtNanos}. */
	DefaultLockHandle granted(LockRequest request, Map<String, Long> fencingTokens, long sentAtNanos) {
		DefaultLockHandle handle = hold(request, fencingTokens, sentAtNanos, request.options().ttl());
		renewalOf(handle).register(handle);
		return handle;
	}

	/**
	 * Registers a lock a release handed to {@code request}, held under the claim lease counted from the
	 * waiter's last request at {@code lastSentAtNanos}; its full lease is set in the background.
	 */
	DefaultLockHandle handed(LockRequest request, HandedLock handed, long lastSentAtNanos) {
		DefaultLockHandle handle = hold(request, Map.of(request.keys().get(0), handed.fencingToken()), lastSentAtNanos, handed.claimLease());
		renewalOf(handle).claimHanded(handle, handed.toldAtNanos());
		return handle;
	}

	private DefaultLockHandle hold(LockRequest request, Map<String, Long> fencingTokens, long requestedAtNanos,
			Duration lease) {
		LockOptions options = request.options();
		DefaultLockHandle handle = new DefaultLockHandle(this, request.keys(), request.owner(), fencingTokens,
				options, driftAllowance(options.ttl()), requestedAtNanos, lease,
				this.observations.startHeld(options, request.callerObservation()));
		this.held.add(handle);
		return handle;
	}

	private Renewal renewalOf(DefaultLockHandle handle) {
		return handle.renew() ? this.renewal : this.noRenewal;
	}

	/**
	 * How much earlier than {@code ttl} after its request a lease counts as ended: the drift allowance, or
	 * more when the store says a lease of {@code ttl} is valid for less.
	 */
	Duration driftAllowance(Duration ttl) {
		Duration storeDrift = ttl.minus(this.store.validity(ttl));
		return (storeDrift.compareTo(this.driftAllowance) > 0) ? storeDrift : this.driftAllowance;
	}

	/** Extends the lease of {@code handle} to {@code ttl}; a lock the store no longer holds for it is lost. */
	boolean extend(DefaultLockHandle handle, Duration ttl) {
		long sentAt = System.nanoTime();
		boolean extended;
		try {
			extended = !this.store.extend(handle.extensions(ttl, false)).contains(false);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new LockUnavailableException(
					"Interrupted while extending lock '" + KeyMasking.mask(handle.name(), handle.key()) + "'", ex);
		}
		if (extended) {
			handle.leaseStarted(sentAt, ttl, driftAllowance(ttl));
			renewalOf(handle).rescheduled(handle);
		}
		else {
			lost(handle);
		}
		return extended;
	}

	/**
	 * Releases the lock of {@code handle}, which its last hold ended; one still held until then counts
	 * among the {@linkplain #retryAfter recent holds} of its name.
	 */
	void release(DefaultLockHandle handle, boolean wasHeld) {
		if (wasHeld) {
			this.holdDurations.ended(handle.name(), handle.storeHold());
		}
		forget(handle);
		this.releases.release(handle);
	}

	/**
	 * The hint for a caller refused on the lock named {@code name}: the longest of this process's recent
	 * holds of that name, at most the busy lease's {@code remainingLease}.
	 */
	Duration retryAfter(@Nullable String name, Duration remainingLease) {
		return this.holdDurations.retryAfter(name, remainingLease);
	}

	/** Counts the lock of {@code handle} as lost, once, and tells the listeners. */
	void lost(DefaultLockHandle handle) {
		if (handle.markLost()) {
			forget(handle);
			handle.endObservation(LockOutcome.LOST);
			Instant detectedAt = Instant.now();
			handle.fencingTokens().forEach((key, token) -> {
				logger.log(Level.WARNING, "Lost the lease of lock '" + KeyMasking.mask(handle.name(), key)
						+ "' (fencing token " + token + ") before its release");
				this.events.leaseLost(new LockLostEvent(handle.name(), key, token, detectedAt));
			});
		}
	}

	private void forget(DefaultLockHandle handle) {
		this.held.remove(handle);
		renewalOf(handle).unregister(handle);
	}

	/** The locks held now, one snapshot for each key. */
	List<LockInfo> list() {
		return this.held.list();
	}

	/** Tells {@code listener} about renewals and lost leases from now on. */
	void listen(LockEventListener listener) {
		this.events.add(listener);
	}

	/** The registry of held locks, for tests that look into it. */
	HeldLocks held() {
		return this.held;
	}

	/** How the leases of locks acquired with renewal are kept, for tests that look into it. */
	Renewal renewal() {
		return this.renewal;
	}

	/** Stops renewing; locks still held expire after their lease. Events already queued are still delivered. */
	@Override
	public void close() {
		this.renewal.close();
		this.noRenewal.close();
		this.events.close();
	}

}
