package dev.locksmith.core;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import io.micrometer.observation.Observation;
import org.jspecify.annotations.Nullable;

import dev.locksmith.core.LockStore.LeaseExtension;
import dev.locksmith.core.observation.LockOutcome;

/**
 * The engine's {@link LockHandle}, for one key or for several granted together: tracks the lease on
 * the local monotonic clock, never the wall clock, and counts holds: this handle is the first, each
 * {@link #hold()} adds one, and the lock is released when the last one ends. A process may hold many
 * thousands of these, so the state that changes lives in volatile fields updated through
 * {@link VarHandle}s rather than in atomic objects of its own, and the future {@link #lost()} copies is
 * made when someone first asks for it or the lock is lost.
 */
final class DefaultLockHandle implements LockHandle, HolderAware {

	private enum State {

		HELD, RELEASED, LOST

	}

	private static final VarHandle STATE;

	private static final VarHandle RENEWALS;

	private static final VarHandle HOLDS;

	private static final VarHandle FIRST_HOLD_OPEN;

	private static final VarHandle LEASE;

	private static final VarHandle OBSERVING;

	private static final VarHandle LOST;

	static {
		MethodHandles.Lookup lookup = MethodHandles.lookup();
		try {
			STATE = lookup.findVarHandle(DefaultLockHandle.class, "state", State.class);
			RENEWALS = lookup.findVarHandle(DefaultLockHandle.class, "renewals", int.class);
			HOLDS = lookup.findVarHandle(DefaultLockHandle.class, "holds", int.class);
			FIRST_HOLD_OPEN = lookup.findVarHandle(DefaultLockHandle.class, "firstHoldOpen", boolean.class);
			LEASE = lookup.findVarHandle(DefaultLockHandle.class, "lease", Lease.class);
			OBSERVING = lookup.findVarHandle(DefaultLockHandle.class, "observing", boolean.class);
			LOST = lookup.findVarHandle(DefaultLockHandle.class, "lost", CompletableFuture.class);
		}
		catch (ReflectiveOperationException ex) {
			throw new ExceptionInInitializerError(ex);
		}
	}

	private final Leases leases;

	private final List<String> keys;

	private final String ownerToken;

	private final LockShare share;

	/** The fencing token of the only key; for several keys, the first key's. */
	private final long fencingToken;

	/** The fencing token of each key, in the order of {@link #keys}, for several keys; none for one (an array less per lock). */
	private final long @Nullable [] fencingTokens;

	private final @Nullable String name;

	private final Duration ttl;

	private final boolean renew;

	/** When the lock was granted, in microseconds since the epoch on the wall clock. */
	private final long acquiredAtEpochMicros;

	/** When the lock was granted, on the monotonic clock. */
	private final long grantedAtNanos;

	private final long holdUntilNanos;

	private final String ownerThread;

	private volatile State state = State.HELD;

	/** Read unsigned: 2^32 renewals take 1,361 years at the default ttl of 30s. */
	private volatile int renewals;

	private volatile int holds = 1;

	private volatile boolean firstHoldOpen = true;

	private volatile @Nullable String holder;

	private final Duration driftAllowance;

	private volatile @Nullable Lease lease;

	private final Observation observation;

	private volatile boolean observing = true;

	private volatile @Nullable CompletableFuture<Void> lost;

	/**
	 * A handle on locks the store set under a lease of {@code lease} (the options' ttl, or a hand-over's
	 * claim lease) for a request sent at {@code requestedAtNanos}, or later.
	 */
	DefaultLockHandle(Leases leases, List<String> keys, LockOwner owner, Map<String, Long> fencingTokens,
			LockOptions options, Duration driftAllowance, long requestedAtNanos, Duration lease,
			Observation observation) {
		this.leases = leases;
		this.keys = keys;
		this.ownerToken = owner.token();
		this.share = owner.share();
		long[] tokens = tokensInOrder(keys, fencingTokens);
		this.fencingToken = tokens[0];
		this.fencingTokens = (tokens.length > 1) ? tokens : null;
		this.name = options.name();
		this.ttl = options.ttl();
		this.renew = options.renew();
		this.driftAllowance = driftAllowance;
		this.observation = observation;
		this.acquiredAtEpochMicros = WallClock.nowEpochMicros();
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
	public long fencingToken() {
		return (this.fencingTokens == null) ? this.fencingToken : LockHandle.super.fencingToken();
	}

	@Override
	public long fencingToken(String key) {
		int index = this.keys.indexOf(key);
		return (index >= 0) ? fencingTokenAt(index) : LockHandle.super.fencingToken(key);
	}

	@Override
	public Map<String, Long> fencingTokens() {
		if (this.keys.size() == 1) {
			return Collections.singletonMap(this.keys.get(0), this.fencingToken);
		}
		Map<String, Long> byKey = new LinkedHashMap<>();
		for (int i = 0; i < this.keys.size(); i++) {
			byKey.put(this.keys.get(i), fencingTokenAt(i));
		}
		return Collections.unmodifiableMap(byKey);
	}

	@Override
	public Instant acquiredAt() {
		return WallClock.instant(this.acquiredAtEpochMicros);
	}

	/** The lease's deadline, placed on the wall clock by the two clocks' readings at the grant: the same at every call. */
	@Override
	public Instant expiresAt() {
		return WallClock.instant(this.acquiredAtEpochMicros
				+ TimeUnit.NANOSECONDS.toMicros(lease().deadlineNanos() - this.grantedAtNanos));
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
		if (this.state == State.HELD) {
			this.leases.lost(this);
		}
		return false;
	}

	/** Whether the lock is neither released nor lost and its lease runs, without reporting a lease that ended. */
	boolean leaseRuns() {
		return this.state == State.HELD && lease().runsAt(System.nanoTime());
	}

	@Override
	public CompletionStage<Void> lost() {
		return lostFuture().copy();
	}

	@Override
	public boolean extend(Duration ttl) {
		if (ttl.toMillis() < 1) {
			throw new IllegalArgumentException("ttl must be at least 1ms, was " + ttl);
		}
		return this.state == State.HELD && this.leases.extend(this, ttl);
	}

	@Override
	public LockHandle hold() {
		if (!addHold()) {
			throw new IllegalStateException("Lock '" + KeyMasking.mask(name(), key()) + "' was already released");
		}
		if (this.state == State.LOST) {
			dropHold();
			throw new LockLostException(name(), this);
		}
		return new AddedHold(this);
	}

	@Override
	public void close() {
		if (FIRST_HOLD_OPEN.compareAndSet(this, true, false)) {
			dropHold();
		}
	}

	/**
	 * Ends one hold, and releases the lock when it was the last; a lock whose lease ended before it is
	 * reported lost first.
	 */
	void dropHold() {
		if ((int) HOLDS.getAndAdd(this, -1) != 1) {
			return;
		}
		isHeld();
		State before = (State) STATE.getAndSet(this, State.RELEASED);
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
		return "LockHandle[fencingTokens=" + fencingTokens() + ", state=" + this.state + "]";
	}

	/** Adds a hold unless the last one ended already. */
	private boolean addHold() {
		for (int count = this.holds; count > 0; count = this.holds) {
			if (HOLDS.compareAndSet(this, count, count + 1)) {
				return true;
			}
		}
		return false;
	}

	private Lease lease() {
		Lease current = this.lease;
		if (current == null) {
			throw new IllegalStateException("A lock handle's lease is set when it is made");
		}
		return current;
	}

	/** The future that {@link #lost()} copies, made by whichever asks first: a caller, or the loss. */
	@SuppressWarnings("unchecked")
	private CompletableFuture<Void> lostFuture() {
		CompletableFuture<Void> existing = this.lost;
		if (existing != null) {
			return existing;
		}
		CompletableFuture<Void> made = new CompletableFuture<>();
		CompletableFuture<Void> raced = (CompletableFuture<Void>) LOST.compareAndExchange(this, null, made);
		return (raced != null) ? raced : made;
	}

	private long fencingTokenAt(int index) {
		return (this.fencingTokens != null) ? this.fencingTokens[index] : this.fencingToken;
	}

	/** The fencing token of each key, in the keys' order: a store that issued them for other keys is refused. */
	private static long[] tokensInOrder(List<String> keys, Map<String, Long> tokens) {
		if (tokens.size() != keys.size() || !tokens.keySet().containsAll(keys)) {
			throw new IllegalStateException("The store issued fencing tokens for " + KeyMasking.describe(
					List.copyOf(tokens.keySet())) + " when asked for " + KeyMasking.describe(keys));
		}
		long[] inOrder = new long[keys.size()];
		for (int i = 0; i < inOrder.length; i++) {
			inOrder[i] = tokens.get(keys.get(i));
		}
		return inOrder;
	}

	@Nullable String name() {
		return this.name;
	}

	/** Ends the observation of the time this lock was held, once: a lost lock is released afterwards too. */
	void endObservation(LockOutcome outcome) {
		if (OBSERVING.compareAndSet(this, true, false)) {
			LockObservations.stop(this.observation, outcome);
		}
	}

	List<String> keys() {
		return this.keys;
	}

	LockOwner owner() {
		return new LockOwner(this.ownerToken, this.share);
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
		LockOwner owner = owner();
		return this.keys.stream().map((key) -> new LeaseExtension(key, owner, ttl, last)).toList();
	}

	long renewalDueNanos() {
		return lease().renewalDueNanos();
	}

	long leaseDeadlineNanos() {
		return lease().deadlineNanos();
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
		return this.state == State.HELD;
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
		Lease current;
		do {
			current = this.lease;
		}
		while (!LEASE.compareAndSet(this, current, (current != null) ? current.later(started) : started));
	}

	/** Records a renewal sent at {@code requestedAtNanos}. */
	void renewed(long requestedAtNanos) {
		leaseStarted(requestedAtNanos, this.ttl);
		RENEWALS.getAndAdd(this, 1);
		LockObservations.renewed(this.observation);
	}

	/** Asks for another renewal attempt at {@code dueNanos}, after a failed one. */
	void retryRenewalAt(long dueNanos) {
		Lease current;
		do {
			current = lease();
		}
		while (!LEASE.compareAndSet(this, current, current.renewingAt(dueNanos)));
	}

	/**
	 * Marks the lock lost and tells {@link #lost()} on another thread, so no callback delays the renewal
	 * thread that found the loss; true only for the call that made the change.
	 */
	boolean markLost() {
		boolean marked = STATE.compareAndSet(this, State.HELD, State.LOST);
		if (marked) {
			lostFuture().completeAsync(() -> null);
		}
		return marked;
	}

	/** One snapshot for each key. */
	Stream<LockInfo> toInfos() {
		return IntStream.range(0, this.keys.size())
			.mapToObj((i) -> new LockInfo(name(), this.keys.get(i), fencingTokenAt(i), acquiredAt(), expiresAt(),
					Integer.toUnsignedLong(this.renewals), this.ownerThread, this.holder, this.share.mode(),
					this.share.permits()));
	}

}
