package dev.locksmith.core;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * Waits for a store call at most the timeout, on the caller's thread, turning silence into a
 * {@link LockUnavailableException}: a store that stops answering never hangs the caller.
 */
final class TimeLimit {

	private final Duration timeout;

	public TimeLimit(Duration timeout) {
		if (timeout.toMillis() < 1) {
			throw new IllegalArgumentException("timeout must be at least 1ms, was " + timeout);
		}
		this.timeout = timeout;
	}

	/** Waits for a started call; {@code what} names it in messages ("acquire of 'a'"), when there is one. */
	public <T> T await(CompletableFuture<T> call, Supplier<String> what) throws InterruptedException {
		try {
			return call.get(this.timeout.toNanos(), TimeUnit.NANOSECONDS);
		}
		catch (TimeoutException ex) {
			throw new LockUnavailableException(
					"Lock store did not answer " + what.get() + " within " + this.timeout.toMillis() + "ms", ex,
					StoreFailures.timedOut(this.timeout));
		}
		catch (ExecutionException ex) {
			if (ex.getCause() instanceof RuntimeException runtime) {
				throw runtime;
			}
			throw new LockUnavailableException("Lock store failed " + what.get(), ex.getCause());
		}
	}

	/** Waits until every call is done, at most the timeout; the caller reads which answered. */
	public void awaitAll(List<? extends CompletableFuture<?>> calls) throws InterruptedException {
		try {
			CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).get(this.timeout.toNanos(),
					TimeUnit.NANOSECONDS);
		}
		catch (TimeoutException | ExecutionException ex) {
			// Some calls failed or did not answer in time: each caller sees which.
		}
	}

}
