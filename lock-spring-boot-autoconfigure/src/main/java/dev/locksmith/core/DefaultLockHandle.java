package dev.locksmith.core;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/** The engine's {@link LockHandle}: tracks the lease on the local monotonic clock, never the wall clock. */
final class DefaultLockHandle implements LockHandle {

	private enum State {

		HELD, RELEASED, LOST

	}

	private final DefaultLockService service;

	private final String key;

	private final String ownerToken;

	private final long fencingToken;

	private final Duration ttl;

	private final Instant acquiredAt;

	private final String ownerThread;

	private final AtomicReference<State> state = new AtomicReference<>(State.HELD);

	private final AtomicLong renewals = new AtomicLong();

	private volatile long leaseDeadlineNanos;

	private volatile long renewalDueNanos;

	private volatile Instant expiresAt;

	DefaultLockHandle(DefaultLockService service, String key, String ownerToken, long fencingToken, Duration ttl,
			long requestedAtNanos) {
		this.service = service;
		this.key = key;
		this.ownerToken = ownerToken;
		this.fencingToken = fencingToken;
		this.ttl = ttl;
		this.acquiredAt = Instant.now();
		this.ownerThread = Thread.currentThread().getName();
		leaseStarted(requestedAtNanos, this.ttl);
	}

	@Override
	public String key() {
		return this.key;
	}

	@Override
	public long fencingToken() {
		return this.fencingToken;
	}

	@Override
	public Instant acquiredAt() {
		return this.acquiredAt;
	}

	@Override
	public Instant expiresAt() {
		return this.expiresAt;
	}

	@Override
	public boolean isHeld() {
		return this.state.get() == State.HELD && System.nanoTime() - this.leaseDeadlineNanos < 0;
	}

	@Override
	public boolean extend(Duration ttl) {
		if (ttl.toMillis() < 1) {
			throw new IllegalArgumentException("ttl must be at least 1ms, was " + ttl);
		}
		return this.state.get() == State.HELD && this.service.extend(this, ttl);
	}

	@Override
	public void close() {
		if (this.state.compareAndSet(State.HELD, State.RELEASED)) {
			this.service.release(this);
		}
	}

	@Override
	public String toString() {
		return "LockHandle[key=" + this.key + ", fencingToken=" + this.fencingToken + ", state=" + this.state.get() + "]";
	}

	String ownerToken() {
		return this.ownerToken;
	}

	Duration ttl() {
		return this.ttl;
	}

	long renewalDueNanos() {
		return this.renewalDueNanos;
	}

	long leaseDeadlineNanos() {
		return this.leaseDeadlineNanos;
	}

	/** Whether the lock is neither released nor lost, whatever the lease says. */
	boolean isActive() {
		return this.state.get() == State.HELD;
	}

	/** Records a lease of {@code ttl} that the store granted for a request sent at {@code requestedAtNanos}. */
	void leaseStarted(long requestedAtNanos, Duration ttl) {
		this.leaseDeadlineNanos = requestedAtNanos + ttl.toNanos();
		this.renewalDueNanos = requestedAtNanos + ttl.toNanos() / 3;
		this.expiresAt = Instant.now().plus(ttl);
	}

	/** Records a renewal sent at {@code requestedAtNanos}. */
	void renewed(long requestedAtNanos) {
		leaseStarted(requestedAtNanos, this.ttl);
		this.renewals.incrementAndGet();
	}

	/** Asks for another renewal attempt at {@code dueNanos}, after a failed one. */
	void retryRenewalAt(long dueNanos) {
		this.renewalDueNanos = dueNanos;
	}

	/** Marks the lock lost; true only for the call that made the change. */
	boolean markLost() {
		return this.state.compareAndSet(State.HELD, State.LOST);
	}

	LockInfo toInfo() {
		return new LockInfo(this.key, this.fencingToken, this.acquiredAt, this.expiresAt, this.renewals.get(),
				this.ownerThread);
	}

}
