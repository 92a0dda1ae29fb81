package dev.locksmith.core;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * Runs store calls on daemon threads and waits for each at most the timeout, turning silence into
 * a {@link LockUnavailableException}: a store that stops answering never hangs the caller.
 */
final class TimeLimit implements AutoCloseable {

	private final Duration timeout;

	private final ExecutorService executor = Executors.newCachedThreadPool(new DaemonThreadFactory("locksmith-store"));

	TimeLimit(Duration timeout) {
		if (timeout.toMillis() < 1) {
			throw new IllegalArgumentException("timeout must be at least 1ms, was " + timeout);
		}
		this.timeout = timeout;
	}

	/** Starts {@code call} without waiting for it. */
	<T> CompletableFuture<T> start(Supplier<T> call) {
		return CompletableFuture.supplyAsync(call, this.executor);
	}

	/** Runs {@code call} and waits for it; {@code what} names it in messages ("acquire of 'a'"). */
	<T> T call(Supplier<T> call, String what) {
		return await(start(call), what);
	}

	/** Waits for a started call; {@code what} names it in messages ("acquire of 'a'"). */
	<T> T await(CompletableFuture<T> call, String what) {
		try {
			return call.get(this.timeout.toNanos(), TimeUnit.NANOSECONDS);
		}
		catch (TimeoutException ex) {
			throw new LockUnavailableException(
					"Lock store did not answer " + what + " within " + this.timeout.toMillis() + "ms", ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new LockUnavailableException("Interrupted during " + what, ex);
		}
		catch (ExecutionException ex) {
			if (ex.getCause() instanceof RuntimeException runtime) {
				throw runtime;
			}
			throw new LockUnavailableException("Lock store failed " + what, ex.getCause());
		}
	}

	@Override
	public void close() {
		this.executor.shutdownNow();
	}

}
