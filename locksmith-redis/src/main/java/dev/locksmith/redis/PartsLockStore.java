package dev.locksmith.redis;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.jspecify.annotations.Nullable;
import org.springframework.context.SmartLifecycle;

import dev.locksmith.core.LockOwner;
import dev.locksmith.core.LockStore;
import dev.locksmith.core.ReleaseNotifications.Listener;

/**
 * A {@link LockStore} made of parts, each made on first use, that the store starts, stops and closes:
 * its lock calls go to the part that {@link #makeLocks()} makes, once, and then read without a lock. As a bean, the application context starts
 * it before the web server (whose phases are {@code DEFAULT_PHASE - 2048} and up) and stops it after
 * the server has drained; without a context, call {@link #start()} and {@link #close()}.
 */
abstract class PartsLockStore implements LockStore, SmartLifecycle {

	/** The parts this store made. */
	final StoreParts parts = new StoreParts();

	private volatile @Nullable LockStore locks;

	/** Makes the part that takes, renews and releases locks, and adds it to the parts; called once. */
	abstract LockStore makeLocks();

	/** The part that takes, renews and releases locks, made on first use. */
	final LockStore locks() {
		LockStore made = this.locks;
		if (made == null) {
			synchronized (this) {
				made = this.locks;
				if (made == null) {
					made = makeLocks();
					this.locks = made;
				}
			}
		}
		return made;
	}

	@Override
	public CompletableFuture<AcquireResult> tryAcquire(AcquireRequest request) {
		return locks().tryAcquire(request);
	}

	@Override
	public CompletableFuture<Integer> release(List<String> keys, LockOwner owner, Listener handOvers) {
		return locks().release(keys, owner, handOvers);
	}

	@Override
	public List<CompletableFuture<Boolean>> extend(List<LeaseExtension> leases) {
		return locks().extend(leases);
	}

	@Override
	public CompletableFuture<Boolean> isLocked(String key) {
		return locks().isLocked(key);
	}

	@Override
	public boolean grantsShares() {
		return locks().grantsShares();
	}

	@Override
	public Duration validity(Duration ttl) {
		return locks().validity(ttl);
	}

	@Override
	public Duration claimLease() {
		return locks().claimLease();
	}

	@Override
	public void start() {
		this.parts.start();
	}

	@Override
	public void stop() {
		this.parts.stop();
	}

	@Override
	public boolean isRunning() {
		return this.parts.isRunning();
	}

	/** Stops the store, and frees the connections and threads of the parts it made. */
	@Override
	public void close() {
		this.parts.close();
	}

}
