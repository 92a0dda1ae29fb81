package dev.locksmith.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.springframework.scheduling.concurrent.CustomizableThreadFactory;

import dev.locksmith.core.LockAdministration;
import dev.locksmith.core.LockUnavailableException;
import dev.locksmith.core.internal.KeyMasking;
import dev.locksmith.core.internal.TimeLimit;

/**
 * Decorator that bounds every {@link LockAdministration} call by a timeout, so an operator's
 * request or a health check never hangs on a silent store. The blocking calls run on a small
 * bounded pool: beyond {@link #MAX_THREADS} calls in flight, a call fails at once.
 */
final class TimeBoundedLockAdministration implements LockAdministration, AutoCloseable {

	/** Most administration calls in flight. */
	static final int MAX_THREADS = 4;

	private final LockAdministration delegate;

	private final TimeLimit timeLimit;

	private final ThreadPoolExecutor executor = new ThreadPoolExecutor(0, MAX_THREADS, 30, TimeUnit.SECONDS,
			new SynchronousQueue<>(), daemonThreads("locksmith-admin-"));

	TimeBoundedLockAdministration(LockAdministration delegate, Duration timeout) {
		this.delegate = delegate;
		this.timeLimit = new TimeLimit(timeout);
	}

	@Override
	public String storeDescription() {
		return this.delegate.storeDescription();
	}

	@Override
	public void ping() {
		call(() -> {
			this.delegate.ping();
			return true;
		}, "ping");
	}

	@Override
	public Map<String, String> nodeStates() {
		return call(this.delegate::nodeStates, "check of the store's servers");
	}

	/** Asked directly: the store's details are what the client already knows, so nothing waits on the store. */
	@Override
	public Map<String, Object> storeDetails() {
		return this.delegate.storeDetails();
	}

	@Override
	public List<StoredLock> storedLocks(int limit) {
		return call(() -> this.delegate.storedLocks(limit), "listing of the stored locks");
	}

	@Override
	public boolean forceRelease(String key) {
		return call(() -> this.delegate.forceRelease(key), "forced release of '" + KeyMasking.mask(key) + "'");
	}

	@Override
	public void close() {
		this.executor.shutdownNow();
	}

	private <T> T call(Supplier<T> call, String what) {
		try {
			return this.timeLimit.await(CompletableFuture.supplyAsync(call, this.executor), () -> what);
		}
		catch (RejectedExecutionException ex) {
			throw new LockUnavailableException("Too many lock administration calls in flight (" + MAX_THREADS + ")",
					ex, "busy: " + MAX_THREADS + " earlier calls still wait for the store");
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new LockUnavailableException("Interrupted during " + what, ex);
		}
	}

	private static CustomizableThreadFactory daemonThreads(String prefix) {
		CustomizableThreadFactory threads = new CustomizableThreadFactory(prefix);
		threads.setDaemon(true);
		return threads;
	}

}
