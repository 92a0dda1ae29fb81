package dev.locksmith.core;

import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import io.micrometer.observation.Observation;
import org.jspecify.annotations.Nullable;

import dev.locksmith.annotation.LockMode;
import dev.locksmith.core.LockStore.LeaseExtension;
import dev.locksmith.core.observation.LockOutcome;

/**
 * The engine's {@link LockHandle}, for one key or for several granted together: tracks the lease on
 * the local monotonic clock, never the wall clock, and counts holds: this handle is the first, each
 * {@link #hold()} adds one, and the lock is released when the last one ends.
 */
final class DefaultLockHandle implements LockHandle, HolderAware {

	private enum State {

		HELD, RELEASED, LOST

	}

	private final Leases leases;

	private final @Nullable String name;

	private final List<String> keys;

	private final LockOwner owner;

	private final Map<String, Long> fencingTokens;

	private final Duration ttl;

	private final LockMode mode;

	private final int permits;
	private final boolean renew;

	private final Instant acquiredAt;

	private final long grantedAtNanos;

	private final long holdUntilNanos;

	private final String ownerThread;

	private final AtomicReference<State> state = new AtomicReference<>(State.HELD);

	private final AtomicLong renewals = new AtomicLong();

	private final AtomicInteger holds = new AtomicInteger(1);

	private final AtomicBoolean firstHoldOpen = new AtomicBoolean(true);

	private volatile @Nullable String holder;

	private final Duration driftAllowance;

	private final AtomicReference<Lease> lease = new AtomicReference<>();

	private final Observation observation;

	private final AtomicBoolean observing = new AtomicBoolean(true);

	private final CompletableFuture<Void> lost = new CompletableFuture<>();

	/**
	 * A handle on locks the store set under a lease of {@code lease} (the options' ttl, or a hand-over's
	 * claim lease) for a request sent at {@code requestedAtNanos}, or later.
	 */
	DefaultLockHandle(Leases leases, List<String> keys, LockOwner owner, Map<String, Long> fencingTokens,
			LockOptions options, Duration driftAllowance, long requestedAtNanos, Duration lease,
			Observation observation) {
		this.leases = leases;
		this.name = options.name();
		this.keys = keys;
		this.owner = owner;
		this.fencingTokens = tokensByKey(keys, fencingTokens);
		this.ttl = options.ttl();
		this.mode = options.mode();
		this.permits = options.permits();
		this.renew = options.renew();
		this.driftAllowance = driftAllowance;
		this.observation = observation;
		this.acquiredAt = Instant.now();
		this.grantedAtNanos = System.nanoTime();
		this.holdUntilNanos = this.grantedAtNanos + options.holdAtLeast().toNanos();
		this.ownerThread = Thread.currentThread().getName();
		leaseStarted(requestedAtNanos, lease);
	}

	/** The key, or for several keys all of them joined by commas. */
	@Override
	public String key() {
		return String.join(",", this.keys);
	}

	@Override
	public Map<String, Long> fencingTokens() {
		return this.fencingTokens;
	}

	@Override
	public Instant acquiredAt() {
		return this.acquiredAt;
	}

	@Override
	public Instant expiresAt() {
		return this.lease.get().expiresAt();
	}

	/**
	 * Whether the lock is held now. A lease found ended while the lock was neither released nor found
	 * lost is lost from then on, and reported as lost (counted, and told to {@link #lost()}) here,
	 * whoever looked: the renewal or the lease-end watch may not have run yet on a loaded machine, and
	 * a work that ends with {@link LockLostException} must never leave a loss uncounted.
	 */
	@Override
	public boolean isHeld() {
		if (leaseRuns()) {
			return true;
		}
		if (this.state.get() == State.HELD) {
			this.leases.lost(this);
		}
		return false;
	}

	/** Whether the lock is neither released nor lost and its lease runs, without reporting a lease that ended. */
	boolean leaseRuns() {
		return this.state.get() == State.HELD && this.lease.get().runsAt(System.nanoTime());
	}

	@Override
	public CompletionStage<Void> lost() {
		return this.lost.copy();
	}

	@Override
	public boolean extend(Duration ttl) {
		if (ttl.toMillis() < 1) {
			throw new IllegalArgumentException("ttl must be at least 1ms, was " + ttl);
		}
		return this.state.get() == State.HELD && this.leases.extend(this, ttl);
	}

	@Override
	public LockHandle hold() {
		if (this.holds.getAndUpdate((count) -> (count > 0) ? count + 1 : count) == 0) {
			throw new IllegalStateException("Lock '" + KeyMasking.mask(name(), key()) + "' was already released");
		}
		if (this.state.get() == State.LOST) {
			dropHold();
			throw new LockLostException(this.name, this);
		}
		return new AddedHold(this);
	}

	@Override
	public void close() {
		if (this.firstHoldOpen.compareAndSet(true, false)) {
			dropHold();
		}
	}

	/**
	 * Ends one hold, and releases the lock when it was the last; a lock whose lease ended before it is
	 * reported lost first.
	 */
	void dropHold() {
		if (this.holds.decrementAndGet() != 0) {
			return;
		}
		isHeld();
		State before = this.state.getAndSet(State.RELEASED);
		// A lost lock is released too: after a local give-up its key may still be in the store.
		if (before != State.RELEASED) {
			this.leases.release(this, before == State.HELD);
		}
	}

	/** Names what holds the lock, such as an annotated method, for operators; the first name given stays. */
	@Override
	public void describeHolder(String holder) {
		if (this.holder == null) {
			this.holder = holder;
		}
	}

	@Override
	public String toString() {
		return "LockHandle[fencingTokens=" + this.fencingTokens + ", state=" + this.state.get() + "]";
	}

	/** The fencing token of each key, in the keys' order: a store that issued them for other keys is refused. */
	private static Map<String, Long> tokensByKey(List<String> keys, Map<String, Long> tokens) {
		if (tokens.size() != keys.size() || !tokens.keySet().containsAll(keys)) {
			throw new IllegalStateException("The store issued fencing tokens for " + KeyMasking.describe(
					List.copyOf(tokens.keySet())) + " when asked for " + KeyMasking.describe(keys));
		}
		Map<String, Long> byKey = new LinkedHashMap<>();
		keys.forEach((key) -> byKey.put(key, tokens.get(key)));
		return Collections.unmodifiableMap(byKey);
	}

	@Nullable String name() {
		return this.name;
	}

	/** Ends the observation of the time this lock was held, once: a lost lock is released afterwards too. */
	void endObservation(LockOutcome outcome) {
		if (this.observing.compareAndSet(true, false)) {
			LockObservations.stop(this.observation, outcome);
		}
	}

	List<String> keys() {
		return this.keys;
	}

	LockOwner owner() {
		return this.owner;
	}

	Duration ttl() {
		return this.ttl;
	}

	/** Whether the lock was acquired to be renewed while held, as {@link LockOptions#renew()} asks. */
	boolean renew() {
		return this.renew;
	}

	/** The extension of every lease of this lock to {@code ttl}; a {@code last} one no later extension lengthens. */
	List<LeaseExtension> extensions(Duration ttl, boolean last) {
		return this.keys.stream().map((key) -> new LeaseExtension(key, this.owner, ttl, last)).toList();
	}

	long renewalDueNanos() {
		return this.lease.get().renewalDueNanos();
	}

	long leaseDeadlineNanos() {
		return this.lease.get().deadlineNanos();
	}

	/**
	 * How much of the minimum hold is left, in whole milliseconds rounded up; zero once it has passed.
	 * Counted from the grant's answer, so the store keeps the lock at least that long after it granted it.
	 */
	Duration minimumHoldLeft() {
		long left = this.holdUntilNanos - System.nanoTime();
		return (left > 0) ? Duration.ofMillis(TimeUnit.NANOSECONDS.toMillis(left) + 1) : Duration.ZERO;
	}

	/**
	 * How long the store keeps this lock for its owner when it is released now: from the grant to now, or
	 * to the end of the minimum hold when that is later.
	 */
	Duration storeHold() {
		return Duration.ofNanos(Math.max(System.nanoTime(), this.holdUntilNanos) - this.grantedAtNanos);
	}

	/** Whether the lock is neither released nor lost, whatever the lease says. */
	boolean isActive() {
		return this.state.get() == State.HELD;
	}

	/**
	 * Records a lease of {@code ttl} that the store granted for a request sent at {@code requestedAtNanos},
	 * unless a later request set the current lease: the store applied that one last.
	 */
	void leaseStarted(long requestedAtNanos, Duration ttl) {
		leaseStarted(requestedAtNanos, ttl, this.driftAllowance);
	}

	/** Records a lease of {@code ttl} as {@link #leaseStarted(long, Duration)}, ending {@code driftAllowance} early. */
	void leaseStarted(long requestedAtNanos, Duration ttl, Duration driftAllowance) {
		Lease started = Lease.of(requestedAtNanos, ttl, driftAllowance);
		// The renewal due time is part of the lease, so the lease kept and its due time never disagree.
		this.lease.accumulateAndGet(started, (current, next) -> (current != null) ? current.later(next) : next);
	}

	/** Records a renewal sent at {@code requestedAtNanos}. */
	void renewed(long requestedAtNanos) {
		leaseStarted(requestedAtNanos, this.ttl);
		this.renewals.incrementAndGet();
		LockObservations.renewed(this.observation);
	}

	/** Asks for another renewal attempt at {@code dueNanos}, after a failed one. */
	void retryRenewalAt(long dueNanos) {
		this.lease.updateAndGet((current) -> current.renewingAt(dueNanos));
	}

	/**
	 * Marks the lock lost and tells {@link #lost()} on another thread, so no callback delays the renewal
	 * thread that found the loss; true only for the call that made the change.
	 */
	boolean markLost() {
		boolean marked = this.state.compareAndSet(State.HELD, State.LOST);
		if (marked) {
			this.lost.completeAsync(() -> null);
		}
		return marked;
	}

	/** One snapshot for each key. */
	Stream<LockInfo> toInfos() {
		return this.keys.stream()
			.map((key) -> new LockInfo(this.name, key, this.fencingTokens.get(key), this.acquiredAt, expiresAt(),
					this.renewals.get(), this.ownerThread, this.holder, this.mode, this.permits));
	}

}
