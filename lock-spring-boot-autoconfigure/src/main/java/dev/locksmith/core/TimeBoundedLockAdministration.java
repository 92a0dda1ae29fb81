package dev.locksmith.core;

import java.time.Duration;
import java.util.List;

/**
 * Decorator that bounds every {@link LockAdministration} call by a timeout, so an operator's
 * request or a health check never hangs on a silent store.
 *
 * @since 0.1.0
 */
public final class TimeBoundedLockAdministration implements LockAdministration, AutoCloseable {

	private final LockAdministration delegate;

	private final TimeLimit timeLimit;

	public TimeBoundedLockAdministration(LockAdministration delegate, Duration timeout) {
		this.delegate = delegate;
		this.timeLimit = new TimeLimit(timeout);
	}

	@Override
	public String storeDescription() {
		return this.delegate.storeDescription();
	}

	@Override
	public void ping() {
		this.timeLimit.call(() -> {
			this.delegate.ping();
			return true;
		}, "ping");
	}

	@Override
	public List<StoredLock> storedLocks(int limit) {
		return this.timeLimit.call(() -> this.delegate.storedLocks(limit), "listing of the stored locks");
	}

	@Override
	public boolean forceRelease(String key) {
		return this.timeLimit.call(() -> this.delegate.forceRelease(key), "forced release of '" + key + "'");
	}

	@Override
	public void close() {
		this.timeLimit.close();
	}

}
