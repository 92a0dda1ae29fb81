package dev.locksmith.core;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * Decorator that bounds every backend call by a timeout and turns an unanswered call into a
 * {@link LockUnavailableException}; a grant that arrives after its caller gave up is released.
 *
 * @since 0.1.0
 */
public final class TimeBoundedLockBackend implements LockBackend, AutoCloseable {

	private final LockBackend delegate;

	private final Duration timeout;

	private final ExecutorService executor = Executors.newCachedThreadPool(new DaemonThreadFactory("locksmith-store"));

	public TimeBoundedLockBackend(LockBackend delegate, Duration timeout) {
		if (timeout.isNegative() || timeout.isZero()) {
			throw new IllegalArgumentException("timeout must be positive, was " + timeout);
		}
		this.delegate = delegate;
		this.timeout = timeout;
	}

	@Override
	public AcquireResult tryAcquire(List<String> keys, String ownerToken, Duration ttl) {
		CompletableFuture<AcquireResult> call = submit(() -> this.delegate.tryAcquire(keys, ownerToken, ttl));
		try {
			return await(call, "acquire", keys);
		}
		catch (LockUnavailableException ex) {
			call.thenAccept((late) -> releaseLateGrant(late, keys, ownerToken));
			throw ex;
		}
	}

	@Override
	public int release(List<String> keys, String ownerToken) {
		return await(submit(() -> this.delegate.release(keys, ownerToken)), "release", keys);
	}

	@Override
	public List<Boolean> extend(List<LeaseExtension> leases) {
		return await(submit(() -> this.delegate.extend(leases)), "extend",
				leases.stream().map(LeaseExtension::key).toList());
	}

	@Override
	public void close() {
		this.executor.shutdownNow();
	}

	private <T> CompletableFuture<T> submit(Supplier<T> call) {
		return CompletableFuture.supplyAsync(call, this.executor);
	}

	private <T> T await(CompletableFuture<T> call, String operation, List<String> keys) {
		String key = LockKeys.describe(keys);
		try {
			return call.get(this.timeout.toNanos(), TimeUnit.NANOSECONDS);
		}
		catch (TimeoutException ex) {
			throw new LockUnavailableException("Lock store did not answer " + operation + " of " + key + " within "
					+ this.timeout.toMillis() + "ms", ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new LockUnavailableException("Interrupted during " + operation + " of " + key, ex);
		}
		catch (ExecutionException ex) {
			if (ex.getCause() instanceof RuntimeException runtime) {
				throw runtime;
			}
			throw new LockUnavailableException("Lock store failed " + operation + " of " + key, ex.getCause());
		}
	}

	private void releaseLateGrant(AcquireResult late, List<String> keys, String ownerToken) {
		if (late.acquired()) {
			this.delegate.release(keys, ownerToken);
		}
	}

}
