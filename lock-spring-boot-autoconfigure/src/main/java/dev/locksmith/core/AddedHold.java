package dev.locksmith.core;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.locksmith.core.internal.HolderAware;

/** One further hold on a {@link DefaultLockHandle}, taken by {@link LockHandle#hold()}; closing it ends that hold only. */
final class AddedHold implements LockHandle, HolderAware {

	private final DefaultLockHandle lock;

	private final AtomicBoolean open = new AtomicBoolean(true);

	AddedHold(DefaultLockHandle lock) {
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
		if (this.open.compareAndSet(true, false)) {
			this.lock.dropHold();
		}
	}

	@Override
	public String toString() {
		return this.lock.toString();
	}

	@Override
	public void describeHolder(String holder) {
		this.lock.describeHolder(holder);
	}

}
