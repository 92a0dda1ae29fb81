package dev.locksmith.actuate;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import io.micrometer.core.instrument.LongTaskTimer;

import dev.locksmith.core.LockHandle;

/** A {@link LockHandle} whose held time a long-task timer measures until it is closed. */
final class MeteredLockHandle implements LockHandle {

	private final LockHandle delegate;

	private final LongTaskTimer.Sample heldTime;

	private final AtomicBoolean stopped = new AtomicBoolean();

	MeteredLockHandle(LockHandle delegate, LongTaskTimer.Sample heldTime) {
		this.delegate = delegate;
		this.heldTime = heldTime;
	}

	@Override
	public String key() {
		return this.delegate.key();
	}

	@Override
	public Map<String, Long> fencingTokens() {
		return this.delegate.fencingTokens();
	}

	@Override
	public Instant acquiredAt() {
		return this.delegate.acquiredAt();
	}

	@Override
	public Instant expiresAt() {
		return this.delegate.expiresAt();
	}

	@Override
	public boolean isHeld() {
		return this.delegate.isHeld();
	}

	@Override
	public boolean extend(Duration ttl) {
		return this.delegate.extend(ttl);
	}

	@Override
	public LockHandle hold() {
		return this.delegate.hold();
	}

	@Override
	public void close() {
		try {
			this.delegate.close();
		}
		finally {
			if (this.stopped.compareAndSet(false, true)) {
				this.heldTime.stop();
			}
		}
	}

	@Override
	public String toString() {
		return this.delegate.toString();
	}

}
