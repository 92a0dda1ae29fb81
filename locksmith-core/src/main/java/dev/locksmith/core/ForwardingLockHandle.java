package dev.locksmith.core;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.CompletionStage;

/** A {@link LockHandle} that forwards every call to another one: the base of views on a lock. */
abstract class ForwardingLockHandle implements LockHandle {

	private final LockHandle lock;

	/** A handle that forwards to {@code lock}. */
	protected ForwardingLockHandle(LockHandle lock) {
		this.lock = lock;
	}

	@Override
	public String key() {
		return this.lock.key();
	}

	@Override
	public Map<String, Long> fencingTokens() {
		return this.lock.fencingTokens();
	}

	@Override
	public Instant acquiredAt() {
		return this.lock.acquiredAt();
	}

	@Override
	public Instant expiresAt() {
		return this.lock.expiresAt();
	}

	@Override
	public boolean isHeld() {
		return this.lock.isHeld();
	}

	@Override
	public CompletionStage<Void> lost() {
		return this.lock.lost();
	}

	@Override
	public boolean extend(Duration ttl) {
		return this.lock.extend(ttl);
	}

	@Override
	public LockHandle hold() {
		return this.lock.hold();
	}

	@Override
	public void close() {
		this.lock.close();
	}

	@Override
	public String toString() {
		return this.lock.toString();
	}

}
