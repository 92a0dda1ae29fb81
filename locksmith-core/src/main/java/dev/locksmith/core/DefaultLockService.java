package dev.locksmith.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

import dev.locksmith.core.Acquisitions.Attempt;
import dev.locksmith.core.observation.LockAcquisitionObservationConvention;
import dev.locksmith.core.observation.LockHoldObservationConvention;
import dev.locksmith.core.observation.LockObservationDocumentation;
import dev.locksmith.core.observation.LockOutcome;

/**
 * The lock engine: grants locks through a {@link LockStore}, queues this process's waiters and
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

	private final StoreCalls store;

	private final OwnerTokens ownerTokens;

	private final LockOptions options;

	private final LockObservations observations;

	private final Leases leases;

	private final Acquisitions acquisitions;

	private final LockStore lockStore;

	private final Duration storeTimeout;

	private volatile @Nullable LockAdministration administration;

	private DefaultLockService(Builder builder) {
		this.observations = new LockObservations(builder.observationRegistry, builder.acquisitionConvention,
				builder.holdConvention);
		Waiters waiters = new Waiters();
		this.store = new StoreCalls(builder.store, builder.storeTimeout, waiters::handedOver);
		this.lockStore = builder.store;
		this.storeTimeout = builder.storeTimeout;
		this.ownerTokens = builder.ownerTokens;
		this.options = builder.options;
		this.leases = new Leases(this.store, builder.renewal, builder.driftAllowance, this.observations);
		this.acquisitions = new Acquisitions(this.store, this.leases, waiters,
				builder.notifications ? builder.store.notifications() : null, builder.storeTimeout,
				builder.recheckInterval);
		builder.listeners.forEach(this.leases::listen);
	}

	/** Starts a builder for an engine on {@code store}, which its caller starts and closes. */
	public static Builder builder(LockStore store) {
		return new Builder(store);
	}

	@Override
	public Optional<LockHandle> tryAcquire(String key, LockOptions options) throws InterruptedException {
		return tryAcquireAll(List.of(LockKeys.require(key)), options);
	}

	@Override
	public Optional<LockHandle> tryAcquireAll(Collection<String> keys, LockOptions options)
			throws InterruptedException {
		return Optional.ofNullable(acquireOrRefuse(keys, options).handle());
	}

	/**
	 * Acquires like {@link #tryAcquireAll}; a refusal carries how long the caller waited, on the monotonic
	 * clock, and when a retry has a chance: the busy lease's remaining time from the store, or the longest
	 * of this process's recent holds of the lock's name when that is shorter.
	 */
	@Override
	public LockHandle acquireAll(Collection<String> keys, LockOptions options) throws InterruptedException {
		long start = System.nanoTime();
		Attempt attempt = acquireOrRefuse(keys, options);
		if (attempt.handle() == null) {
			throw new LockBusyException(options.name(), String.join(",", keys),
					Duration.ofNanos(System.nanoTime() - start),
					this.leases.retryAfter(options.name(), attempt.retryAfter()));
		}
		return attempt.handle();
	}

	private Attempt acquireOrRefuse(Collection<String> keys, LockOptions options) throws InterruptedException {
		List<String> canonicalKeys = LockKeys.canonical(keys);
		Objects.requireNonNull(options, "options must not be null");
		checkShares(canonicalKeys, options);
		LockOwner owner = new LockOwner(this.ownerTokens.next(options.name()), options.share());
		LockRequest request = new LockRequest(canonicalKeys, owner, options, this.observations.current());
		Observation acquisition = this.observations.startAcquisition(options);
		LockOutcome outcome = LockOutcome.FAILED;
		try (Observation.Scope scope = acquisition.openScope()) {
			Attempt attempt = this.acquisitions.acquire(request);
			outcome = (attempt.handle() != null) ? LockOutcome.ACQUIRED : LockOutcome.BUSY;
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
		return this.leases.list();
	}

	@Override
	public LockOptions options() {
		return this.options;
	}

	/** What operators see and do in this engine's store, each call bounded by the store timeout; made when first asked. */
	public LockAdministration administration() {
		LockAdministration made = this.administration;
		if (made == null) {
			made = LockAdministration.of(this.lockStore, this.storeTimeout);
			this.administration = made;
		}
		return made;
	}

	/** Stops renewing; locks still held expire after their lease. Events already queued are still delivered. */
	@Override
	public void close() {
		this.leases.close();
	}

	/** The leases this engine keeps: the seam through which tests look at its registry, renewal and events. */
	Leases leases() {
		return this.leases;
	}

	/** How this engine asks and waits: the seam through which tests look at its waiting threads. */
	Acquisitions acquisitions() {
		return this.acquisitions;
	}

	/** Configures a {@link DefaultLockService}. */
	public static final class Builder {

		private final LockStore store;

		private OwnerTokens ownerTokens = new OwnerTokens(OwnerTokens.defaultInstanceId());

		private Duration recheckInterval = Duration.ofSeconds(1);

		private Duration storeTimeout = Duration.ofSeconds(2);

		private boolean notifications = true;

		private boolean renewal = true;

		private Duration driftAllowance = DEFAULT_DRIFT_ALLOWANCE;

		private LockOptions options = LockOptions.ofTtl(Duration.ofSeconds(30));

		private ObservationRegistry observationRegistry = ObservationRegistry.NOOP;

		private @Nullable LockAcquisitionObservationConvention acquisitionConvention;

		private @Nullable LockHoldObservationConvention holdConvention;

		private final List<LockEventListener> listeners = new ArrayList<>();

		private Builder(LockStore store) {
			this.store = Objects.requireNonNull(store, "store must not be null");
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

		/**
		 * Whether waiters are woken by the store's {@link LockStore#notifications() release notifications}
		 * (the default, when the store sends them), or only ask again every re-check interval.
		 */
		public Builder releaseNotifications(boolean enabled) {
			this.notifications = enabled;
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

		/**
		 * The engine on the store, as configured.
		 * @throws IllegalArgumentException when the store's claim lease is shorter than two re-check
		 * intervals: a waiter whose hand-over notice was lost would find its claim lapsed when it looks
		 */
		public DefaultLockService build() {
			Duration claimLease = this.store.claimLease();
			Duration twoRechecks = this.recheckInterval.multipliedBy(2);
			if (!claimLease.isZero() && claimLease.compareTo(twoRechecks) < 0) {
				throw new IllegalArgumentException("The store's claim lease (" + claimLease
						+ ") is shorter than two re-check intervals (recheckInterval " + this.recheckInterval
						+ "): a waiter whose hand-over notice is lost would find its claim lapsed when it re-checks. "
						+ "Give the store a claim lease of at least " + twoRechecks + ", or re-check more often");
			}
			return new DefaultLockService(this);
		}

	}

}
