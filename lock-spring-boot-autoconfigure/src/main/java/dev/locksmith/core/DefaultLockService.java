package dev.locksmith.core;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

import dev.locksmith.core.LockBackend.AcquireResult;
import dev.locksmith.core.LockBackend.LeaseExtension;
import dev.locksmith.core.Waiters.HandedLock;
import dev.locksmith.core.Waiters.Waiter;
import dev.locksmith.core.internal.KeyMasking;
import dev.locksmith.core.internal.OwnerTokens;
import dev.locksmith.core.internal.Shares;
import dev.locksmith.core.observation.LockAcquisitionObservationConvention;
import dev.locksmith.core.observation.LockHoldObservationConvention;
import dev.locksmith.core.observation.LockObservationDocumentation;
import dev.locksmith.core.observation.LockOutcome;

/**
 * The lock engine: grants locks through a {@link LockBackend}, queues this process's waiters and
 * wakes them on release notifications, renews leases and keeps the registry of held locks. Every
 * acquisition, and the time every lock is held, is a Micrometer {@link Observation} as
 * {@link LockObservationDocumentation} documents them: tagged with the lock's name and the outcome,
 * never with its key.
 *
 * @since 0.1.0
 */
public final class DefaultLockService implements LockService, AutoCloseable {

	/** How much earlier than the store this process counts a lease as ended, unless configured otherwise. */
	private static final Duration DEFAULT_DRIFT_ALLOWANCE = Duration.ofMillis(10);

	private static final Logger logger = System.getLogger(DefaultLockService.class.getName());

	private final StoreCalls store;

	private final Duration storeTimeout;

	private final OwnerTokens ownerTokens;

	private final Duration recheckInterval;

	private final Duration driftAllowance;

	private final @Nullable ReleaseNotifications releaseNotifications;

	private final @Nullable LeaseRenewer renewer;

	private final Waiters waiters = new Waiters();

	private final HeldLocks held = new HeldLocks();

	private final LockOptions options;

	private final LockEventDispatcher events = new LockEventDispatcher();

	private final LockObservations observations;

	private DefaultLockService(Builder builder) {
		this.observations = new LockObservations(builder.observationRegistry, builder.acquisitionConvention,
				builder.holdConvention);
		this.store = new StoreCalls(builder.backend, builder.storeTimeout);
		this.storeTimeout = builder.storeTimeout;
		this.ownerTokens = builder.ownerTokens;
		this.options = builder.options;
		this.recheckInterval = builder.recheckInterval;
		this.driftAllowance = builder.driftAllowance;
		this.releaseNotifications = builder.releaseNotifications;
		this.renewer = builder.renewal ? new LeaseRenewer(this.store, this::leaseLost, this::leasesRenewed) : null;
		if (this.releaseNotifications != null) {
			this.releaseNotifications.listen(this.waiters::handedOver);
		}
		builder.listeners.forEach(this.events::add);
	}

	/** Starts a builder for an engine on {@code backend}. */
	public static Builder builder(LockBackend backend) {
		return new Builder(backend);
	}

	@Override
	public Optional<LockHandle> tryAcquire(String key, LockOptions options) throws InterruptedException {
		return tryAcquireAll(List.of(LockKeys.require(key)), options);
	}

	@Override
	public Optional<LockHandle> tryAcquireAll(Collection<String> keys, LockOptions options)
			throws InterruptedException {
		return Optional.ofNullable(acquireOrRefuse(keys, options).handle);
	}

	/** Acquires like {@link #tryAcquireAll}; a refusal carries the busy lease's remaining time from the store. */
	@Override
	public LockHandle acquireAll(Collection<String> keys, LockOptions options) throws InterruptedException {
		Attempt attempt = acquireOrRefuse(keys, options);
		if (attempt.handle == null) {
			throw new LockBusyException(options.name(), String.join(",", keys), options.waitTime(), attempt.retryAfter);
		}
		return attempt.handle;
	}

	private Attempt acquireOrRefuse(Collection<String> keys, LockOptions options) throws InterruptedException {
		List<String> canonicalKeys = LockKeys.canonical(keys);
		Objects.requireNonNull(options, "options must not be null");
		checkShares(canonicalKeys, options);
		String ownerToken = Shares.token(options, this.ownerTokens.next(options.name()));
		Grant grant = new Grant(options, this.observations.current());
		Observation acquisition = this.observations.startAcquisition(options);
		LockOutcome outcome = LockOutcome.FAILED;
		try (Observation.Scope scope = acquisition.openScope()) {
			Attempt attempt = options.waitTime().isZero() ? attempt(canonicalKeys, ownerToken, grant, Duration.ZERO)
					: awaitTurn(canonicalKeys, ownerToken, grant);
			outcome = (attempt.handle != null) ? LockOutcome.ACQUIRED : LockOutcome.BUSY;
			return attempt;
		}
		catch (InterruptedException ex) {
			outcome = LockOutcome.INTERRUPTED;
			acquisition.error(ex);
			throw ex;
		}
		catch (RuntimeException ex) {
			outcome = (ex instanceof LockUnavailableException) ? LockOutcome.UNAVAILABLE : LockOutcome.FAILED;
			acquisition.error(ex);
			throw ex;
		}
		finally {
			LockObservations.stop(acquisition, outcome);
		}
	}

	/** Refuses a read lock or permits that this store cannot grant, or for several keys at once. */
	private void checkShares(List<String> keys, LockOptions options) {
		if (options.exclusive()) {
			return;
		}
		if (!this.store.grantsShares()) {
			throw new IllegalStateException("The lock store " + this.store.name() + " does not support mode "
					+ options.mode() + " with " + options.permits() + " permit(s); use exclusive locks (mode WRITE, "
					+ "permits 1) or locksmith.store=redis");
		}
		if (keys.size() != 1) {
			throw new IllegalArgumentException("A read lock or permits take one key at a time, were "
					+ KeyMasking.describe(keys));
		}
	}

	@Override
	public boolean isLocked(String key) {
		try {
			return this.store.isLocked(LockKeys.require(key));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new LockUnavailableException(
					"Interrupted while asking whether '" + KeyMasking.mask(key) + "' is locked", ex);
		}
	}

	@Override
	public List<LockInfo> heldLocks() {
		return this.held.list();
	}

	@Override
	public LockOptions options() {
		return this.options;
	}

	/** Tells {@code listener} about renewals and lost leases from now on, as {@link Builder#listener} does. */
	void addListener(LockEventListener listener) {
		this.events.add(listener);
	}

	/** Stops renewing; locks still held expire after their lease. Events already queued are still delivered. */
	@Override
	public void close() {
		if (this.renewer != null) {
			this.renewer.close();
		}
		this.events.close();
	}

	/**
	 * Waits in the store's queues with one owner token until a release hands the locks over or the
	 * wait ends. The first refusal queues the caller and watches its keys; from then on a hand-over
	 * notification wakes it, and a bounded re-check covers lost notifications. A refusal carries the
	 * last retry hint.
	 */
	private Attempt awaitTurn(List<String> keys, String ownerToken, Grant grant)
			throws InterruptedException {
		LockOptions options = grant.options();
		long deadline = System.nanoTime() + options.waitTime().toNanos();
		Waiter waiter = this.waiters.join(keys, ownerToken);
		boolean watching = false;
		DefaultLockHandle handle = null;
		try {
			Attempt attempt = attempt(keys, ownerToken, grant, options.waitTime());
			handle = attempt.handle;
			if (handle != null) {
				return attempt;
			}
			watching = true;
			boolean askNow = watch(keys, deadline);
			while (handle == null) {
				long remaining = deadline - System.nanoTime();
				if (askNow && remaining > 0) {
					attempt = attempt(keys, ownerToken, grant, Duration.ofNanos(remaining));
					handle = attempt.handle;
					remaining = deadline - System.nanoTime();
					if (handle == null) {
						// A hand-over noticed before this refusal was answered is older than it: the store had taken it back.
						waiter.takeHandedLock();
					}
				}
				if (handle != null || remaining <= 0) {
					break;
				}
				waiter.await(Math.min(remaining, nextCheckNanos(attempt.retryAfter)));
				handle = takeHandedLock(waiter, keys, ownerToken, grant, attempt.sentAt);
				askNow = true;
			}
			return new Attempt(handle, attempt.retryAfter, attempt.sentAt);
		}
		finally {
			this.waiters.leave(waiter);
			if (watching) {
				unwatch(keys);
			}
			if (handle == null) {
				Duration waitLeft = Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
				this.store.releaseInBackground(keys, ownerToken, waitLeft);
			}
		}
	}

	/**
	 * Watches the keys of a refused waiter. A hand-over sent before a new watch began went unseen, so
	 * this returns whether one began: the caller then asks once more.
	 */
	private boolean watch(List<String> keys, long deadline) {
		boolean began = false;
		if (this.releaseNotifications != null) {
			for (String key : keys) {
				long maxWait = Math.min(this.storeTimeout.toNanos(), Math.max(0, deadline - System.nanoTime()));
				began |= this.releaseNotifications.watch(key, Duration.ofNanos(maxWait));
			}
		}
		return began;
	}

	private void unwatch(List<String> keys) {
		if (this.releaseNotifications != null) {
			keys.forEach(this.releaseNotifications::unwatch);
		}
	}

	/** The bounded re-check: the lock's remaining lease when known and shorter, else the re-check interval. */
	private long nextCheckNanos(Duration retryAfter) {
		long recheck = this.recheckInterval.toNanos();
		long lease = retryAfter.toNanos();
		return (lease > 0) ? Math.min(lease, recheck) : recheck;
	}

	private Attempt attempt(List<String> keys, String ownerToken, Grant grant, Duration queueFor)
			throws InterruptedException {
		LockOptions options = grant.options();
		long sentAt = System.nanoTime();
		AcquireResult result = this.store.tryAcquire(keys, ownerToken, options.ttl(), queueFor);
		if (!result.acquired()) {
			return new Attempt(null, result.retryAfter(), sentAt);
		}
		DefaultLockHandle handle = hold(keys, ownerToken, result.fencingTokens(), grant, sentAt, options.ttl());
		if (options.renew() && this.renewer != null) {
			this.renewer.register(handle);
		}
		return new Attempt(handle, Duration.ZERO, sentAt);
	}

	/**
	 * The lock a release handed to this waiter, with its fencing token, without asking the store: held
	 * under the claim lease, counted from the waiter's last request (the hand-over came after it), and
	 * extended to the full lease in the background. Null when nothing was handed over, or when the claim
	 * may have lapsed already: the waiter then asks the store.
	 */
	private @Nullable DefaultLockHandle takeHandedLock(Waiter waiter, List<String> keys, String ownerToken, Grant grant,
			long lastSentAt) {
		HandedLock handed = waiter.takeHandedLock();
		LockOptions options = grant.options();
		if (handed == null || options.holdAtLeast().compareTo(handed.claimLease()) > 0
				|| !Lease.of(lastSentAt, handed.claimLease(), driftAllowance(options.ttl())).runsAt(System.nanoTime())) {
			// A minimum hold longer than the claim asks the store, which sets the full lease before work starts.
			return null;
		}
		DefaultLockHandle handle = hold(keys, ownerToken, List.of(handed.fencingToken()), grant, lastSentAt,
				handed.claimLease());
		if (options.renew() && this.renewer != null) {
			// Due at once: the renewal thread extends the claim to the full lease.
			this.renewer.register(handle);
		}
		else {
			extendInBackground(handle);
		}
		return handle;
	}

	/** Registers a lock held under a lease of {@code lease} that the store set after {@code requestedAtNanos}. */
	private DefaultLockHandle hold(List<String> keys, String ownerToken, List<Long> fencingTokens, Grant grant,
			long requestedAtNanos, Duration lease) {
		LockOptions options = grant.options();
		DefaultLockHandle handle = new DefaultLockHandle(this, keys, ownerToken, fencingTokens, options,
				driftAllowance(options.ttl()), requestedAtNanos, lease,
				this.observations.startHeld(options, grant.callerObservation()));
		this.held.add(handle);
		return handle;
	}

	/** Extends a handed lock's claim to its full lease without waiting for the answer. */
	private void extendInBackground(DefaultLockHandle handle) {
		Duration ttl = handle.ttl();
		long sentAt = System.nanoTime();
		this.store.extendInBackground(leases(handle, ttl, false)).whenComplete((extended, failure) -> {
			if (failure == null && extended) {
				handle.leaseStarted(sentAt, ttl);
				return;
			}
			if (failure != null) {
				logger.log(Level.WARNING, "Could not extend the claim of lock '" + KeyMasking.mask(handle.name(), handle.key())
						+ "' to its lease; it is counted as lost", failure);
			}
			leaseLost(handle);
		});
	}

	/**
	 * Deletes the lock, or while its minimum hold lasts, shortens its lease to what is left of it as the
	 * owner's last lease, which no renewal still in flight can lengthen: the lock then frees itself, and
	 * waiters find it free when they look again.
	 */
	void release(DefaultLockHandle handle) {
		forget(handle);
		Duration holdLeft = handle.minimumHoldLeft();
		handle.endObservation(LockOutcome.RELEASED);
		try {
			if (holdLeft.isZero()) {
				this.store.release(handle.keys(), handle.ownerToken());
			}
			else {
				this.store.extend(leases(handle, holdLeft, true));
			}
		}
		catch (LockUnavailableException ex) {
			if (holdLeft.isZero()) {
				this.store.retryRelease(handle.keys(), handle.ownerToken(), handle.leaseDeadlineNanos(), ex);
			}
			else {
				logger.log(Level.WARNING, "Could not release lock '" + KeyMasking.mask(handle.name(), handle.key())
						+ "'; it frees itself when its lease ends", ex);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			// A shortened lease was sent already; only its answer goes unread.
			if (holdLeft.isZero()) {
				this.store.releaseInBackground(handle.keys(), handle.ownerToken(), Duration.ZERO);
			}
		}
	}

	boolean extend(DefaultLockHandle handle, Duration ttl) {
		long sentAt = System.nanoTime();
		boolean extended;
		try {
			extended = !this.store.extend(leases(handle, ttl, false)).contains(false);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new LockUnavailableException(
					"Interrupted while extending lock '" + KeyMasking.mask(handle.name(), handle.key()) + "'", ex);
		}
		if (extended) {
			handle.leaseStarted(sentAt, ttl, driftAllowance(ttl));
			if (this.renewer != null) {
				this.renewer.rescheduled(handle);
			}
		}
		else {
			leaseLost(handle);
		}
		return extended;
	}

	private static List<LeaseExtension> leases(DefaultLockHandle handle, Duration ttl, boolean last) {
		return handle.keys().stream().map((key) -> new LeaseExtension(key, handle.ownerToken(), ttl, last)).toList();
	}

	/** How many handles the registry of held locks keeps, expired or not. */
	int registrySize() {
		return this.held.size();
	}

	/** How many waiters and keys the registry of waiting threads keeps: a test hook. */
	int waitRegistrySize() {
		return this.waiters.size();
	}

	/**
	 * How much earlier than {@code ttl} after its request a lease counts as ended: the drift allowance, or
	 * more when the store says a lease of {@code ttl} is valid for less.
	 */
	private Duration driftAllowance(Duration ttl) {
		Duration storeDrift = ttl.minus(this.store.validity(ttl));
		return (storeDrift.compareTo(this.driftAllowance) > 0) ? storeDrift : this.driftAllowance;
	}

	/** What the renewal watchdog has on its hands. */
	RenewalLoad renewalLoad() {
		return (this.renewer != null) ? new RenewalLoad(this.renewer.size(), this.renewer.pendingTicks())
				: new RenewalLoad(0, 0);
	}

	private void leaseLost(DefaultLockHandle handle) {
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

	private void leasesRenewed(int count) {
		this.events.leasesRenewed(count);
	}

	private void forget(DefaultLockHandle handle) {
		this.held.remove(handle);
		if (this.renewer != null) {
			this.renewer.unregister(handle);
		}
	}

	/** One acquisition attempt: the lock when granted, else the retry hint; and when its request was sent. */
	private record Attempt(@Nullable DefaultLockHandle handle, Duration retryAfter, long sentAt) {
	}

	/** What a grant needs besides the keys: the options, and the caller's observation, parent of the held time's. */
	private record Grant(LockOptions options, @Nullable Observation callerObservation) {
	}

	/** How many leases the watchdog renews, and how many of its ticks are scheduled. */
	record RenewalLoad(int leases, int pendingTicks) {
	}

	/** Configures a {@link DefaultLockService}. */
	public static final class Builder {

		private final LockBackend backend;

		private OwnerTokens ownerTokens = new OwnerTokens(OwnerTokens.defaultInstanceId());

		private Duration recheckInterval = Duration.ofSeconds(1);

		private Duration storeTimeout = Duration.ofSeconds(2);

		private @Nullable ReleaseNotifications releaseNotifications;

		private boolean renewal = true;

		private Duration driftAllowance = DEFAULT_DRIFT_ALLOWANCE;

		private LockOptions options = LockOptions.ofTtl(Duration.ofSeconds(30));

		private ObservationRegistry observationRegistry = ObservationRegistry.NOOP;

		private @Nullable LockAcquisitionObservationConvention acquisitionConvention;

		private @Nullable LockHoldObservationConvention holdConvention;

		private final List<LockEventListener> listeners = new ArrayList<>();

		private Builder(LockBackend backend) {
			this.backend = Objects.requireNonNull(backend, "backend must not be null");
		}

		/** Id of this process, written into every owner token; default {@code <host>-<pid>}. */
		public Builder instanceId(String instanceId) {
			this.ownerTokens = new OwnerTokens(instanceId);
			return this;
		}

		/** Longest a waiter sleeps before asking the store again, in case a notification was lost. */
		public Builder recheckInterval(Duration recheckInterval) {
			if (recheckInterval == null || recheckInterval.toMillis() < 1) {
				throw new IllegalArgumentException("recheckInterval must be at least 1ms, was " + recheckInterval);
			}
			this.recheckInterval = recheckInterval;
			return this;
		}

		/** Longest a caller waits for the store to answer one call before it fails with {@link LockUnavailableException}. */
		public Builder storeTimeout(Duration storeTimeout) {
			if (storeTimeout == null || storeTimeout.toMillis() < 1) {
				throw new IllegalArgumentException("storeTimeout must be at least 1ms, was " + storeTimeout);
			}
			this.storeTimeout = storeTimeout;
			return this;
		}

		/** Source of release notifications; without one, waiters poll every re-check interval. */
		public Builder releaseNotifications(@Nullable ReleaseNotifications releaseNotifications) {
			this.releaseNotifications = releaseNotifications;
			return this;
		}

		/** Whether leases of locks acquired with {@link LockOptions#renew()} are extended while held. */
		public Builder renewal(boolean renewal) {
			this.renewal = renewal;
			return this;
		}

		/**
		 * How much earlier than the store this process counts a lease as ended, for the difference between
		 * its clock and the store's; default 10ms.
		 */
		public Builder driftAllowance(Duration driftAllowance) {
			if (driftAllowance == null || driftAllowance.isNegative()) {
				throw new IllegalArgumentException("driftAllowance must not be negative, was " + driftAllowance);
			}
			this.driftAllowance = driftAllowance;
			return this;
		}

		/** The options {@link DefaultLockService#options()} offers; default a 30 second lease and no waiting. */
		public Builder options(LockOptions options) {
			this.options = Objects.requireNonNull(options, "options must not be null");
			return this;
		}

		/** Where acquisitions and holds are observed (metrics and traces); default: nowhere. */
		public Builder observationRegistry(ObservationRegistry observationRegistry) {
			this.observationRegistry = Objects.requireNonNull(observationRegistry,
					"observationRegistry must not be null");
			return this;
		}

		/**
		 * Tells {@code listener} about renewals and lost leases. Listeners are called on one event thread of
		 * their own, never on the renewal thread: a listener that blocks delays later events, not renewals.
		 */
		public Builder listener(LockEventListener listener) {
			this.listeners.add(Objects.requireNonNull(listener, "listener must not be null"));
			return this;
		}

		/** How acquisitions are named and tagged; {@code null}: the default convention. */
		public Builder acquisitionObservationConvention(@Nullable LockAcquisitionObservationConvention convention) {
			this.acquisitionConvention = convention;
			return this;
		}

		/** How held times are named and tagged; {@code null}: the default convention. */
		public Builder holdObservationConvention(@Nullable LockHoldObservationConvention convention) {
			this.holdConvention = convention;
			return this;
		}

		public DefaultLockService build() {
			return new DefaultLockService(this);
		}

	}

}
