package dev.locksmith.core;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.jspecify.annotations.Nullable;

import dev.locksmith.core.LockBackend.AcquireResult;
import dev.locksmith.core.LockBackend.LeaseExtension;
import dev.locksmith.core.WaitQueues.Waiter;

/**
 * The lock engine: grants locks through a {@link LockBackend}, queues this process's waiters and
 * wakes them on release notifications, renews leases and keeps the registry of held locks.
 *
 * @since 0.1.0
 */
public final class DefaultLockService implements LockService, AutoCloseable {

	private static final Logger logger = System.getLogger(DefaultLockService.class.getName());

	private final LockBackend backend;

	private final OwnerTokens ownerTokens;

	private final Duration recheckInterval;

	private final @Nullable LeaseRenewer renewer;

	private final WaitQueues waitQueues = new WaitQueues();

	private final Set<DefaultLockHandle> held = ConcurrentHashMap.newKeySet();

	private final LockEventDispatcher events = new LockEventDispatcher();

	private DefaultLockService(Builder builder) {
		this.backend = builder.backend;
		this.ownerTokens = builder.ownerTokens;
		this.recheckInterval = builder.recheckInterval;
		this.renewer = builder.renewal ? new LeaseRenewer(this.backend, this::leaseLost, this::leasesRenewed) : null;
		if (builder.releaseNotifications != null) {
			builder.releaseNotifications.subscribe(this.waitQueues::wakeFirst);
		}
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
		List<String> canonicalKeys = LockKeys.canonical(keys);
		Objects.requireNonNull(options, "options must not be null");
		if (options.waitTime().isZero()) {
			return Optional.ofNullable(attempt(canonicalKeys, options).handle);
		}
		return Optional.ofNullable(awaitTurn(canonicalKeys, options));
	}

	@Override
	public List<LockInfo> heldLocks() {
		return this.held.stream().filter(DefaultLockHandle::isActive).flatMap(DefaultLockHandle::toInfos).toList();
	}

	/**
	 * Tells {@code listener} about renewals and lost leases from now on. Listeners are called on one event
	 * thread of their own, never on the renewal thread: a listener that blocks delays later events, not
	 * renewals.
	 */
	public void addListener(LockEventListener listener) {
		this.events.add(listener);
	}

	/** The id this process writes into every owner token. */
	public String instanceId() {
		return this.ownerTokens.instanceId();
	}

	/** Stops renewing; locks still held expire after their lease. Events already queued are still delivered. */
	@Override
	public void close() {
		if (this.renewer != null) {
			this.renewer.close();
		}
		this.events.close();
	}

	private @Nullable DefaultLockHandle awaitTurn(List<String> keys, LockOptions options) throws InterruptedException {
		long deadline = System.nanoTime() + options.waitTime().toNanos();
		Waiter waiter = this.waitQueues.join(keys);
		DefaultLockHandle handle = null;
		try {
			Duration retryAfter = this.recheckInterval;
			while (true) {
				if (this.waitQueues.isFirst(waiter)) {
					Attempt attempt = attempt(keys, options);
					handle = attempt.handle;
					if (handle != null) {
						return handle;
					}
					retryAfter = attempt.retryAfter;
				}
				long remaining = deadline - System.nanoTime();
				if (remaining <= 0) {
					return null;
				}
				waiter.await(Math.min(remaining, nextCheckNanos(retryAfter)));
			}
		}
		finally {
			this.waitQueues.leave(waiter, handle != null);
		}
	}

	/** The bounded re-check: the lock's remaining lease when known and shorter, else the re-check interval. */
	private long nextCheckNanos(Duration retryAfter) {
		long recheck = this.recheckInterval.toNanos();
		long lease = retryAfter.toNanos();
		return (lease > 0) ? Math.min(lease, recheck) : recheck;
	}

	private Attempt attempt(List<String> keys, LockOptions options) throws InterruptedException {
		String ownerToken = this.ownerTokens.next();
		long sentAt = System.nanoTime();
		AcquireResult result = ask(keys, ownerToken, options.ttl());
		if (!result.acquired()) {
			return new Attempt(null, result.retryAfter());
		}
		DefaultLockHandle handle = new DefaultLockHandle(this, keys, ownerToken, result.fencingTokens(), options.ttl(),
				sentAt);
		this.held.add(handle);
		if (options.renew() && this.renewer != null) {
			this.renewer.register(handle);
		}
		return new Attempt(handle, Duration.ZERO);
	}

	/** One acquisition round trip; an interrupt while waiting for the store ends as an interrupt. */
	private AcquireResult ask(List<String> keys, String ownerToken, Duration ttl) throws InterruptedException {
		try {
			return this.backend.tryAcquire(keys, ownerToken, ttl);
		}
		catch (LockUnavailableException ex) {
			if (Thread.interrupted()) {
				InterruptedException interrupted = new InterruptedException(
						"Interrupted while acquiring " + LockKeys.describe(keys));
				interrupted.initCause(ex);
				throw interrupted;
			}
			throw ex;
		}
	}

	void release(DefaultLockHandle handle) {
		forget(handle);
		try {
			this.backend.release(handle.keys(), handle.ownerToken());
		}
		catch (LockUnavailableException ex) {
			logger.log(Level.WARNING, "Could not release lock '" + handle.key() + "'; it frees itself when its lease ends",
					ex);
		}
	}

	boolean extend(DefaultLockHandle handle, Duration ttl) {
		long sentAt = System.nanoTime();
		boolean extended = !this.backend
			.extend(handle.keys().stream().map((key) -> new LeaseExtension(key, handle.ownerToken(), ttl)).toList())
			.contains(false);
		if (extended) {
			handle.leaseStarted(sentAt, ttl);
		}
		else {
			leaseLost(handle);
		}
		return extended;
	}

	/** What the renewal watchdog has on its hands. */
	RenewalLoad renewalLoad() {
		return (this.renewer != null) ? new RenewalLoad(this.renewer.size(), this.renewer.pendingTicks())
				: new RenewalLoad(0, 0);
	}

	private void leaseLost(DefaultLockHandle handle) {
		if (handle.markLost()) {
			forget(handle);
			LockLostEvent event = new LockLostEvent(handle.key(), handle.fencingToken(), Instant.now());
			logger.log(Level.WARNING, "Lost the lease of lock '" + handle.key() + "' (fencing token "
					+ handle.fencingToken() + ") before its release");
			this.events.leaseLost(event);
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

	private record Attempt(@Nullable DefaultLockHandle handle, Duration retryAfter) {
	}

	/** How many leases the watchdog renews, and how many of its ticks are scheduled. */
	record RenewalLoad(int leases, int pendingTicks) {
	}

	/** Configures a {@link DefaultLockService}. */
	public static final class Builder {

		private final LockBackend backend;

		private OwnerTokens ownerTokens = new OwnerTokens(OwnerTokens.defaultInstanceId());

		private Duration recheckInterval = Duration.ofSeconds(1);

		private @Nullable ReleaseNotifications releaseNotifications;

		private boolean renewal = true;

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

		public DefaultLockService build() {
			return new DefaultLockService(this);
		}

	}

}
