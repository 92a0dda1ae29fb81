package dev.locksmith.core;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.Supplier;

import dev.locksmith.core.internal.StoreBusyException;

/**
 * Sends a store call again, with growing jittered pauses and no thread of its own, while it fails in a
 * way a later try may not, until it answers or the next try would start after a deadline.
 */
final class Resend {

	/** Resends only calls the store refused for a passing reason. */
	static final Predicate<Throwable> WHEN_BUSY = StoreBusyException.class::isInstance;

	/** Resends on any failure: for a call whose effect matters however the store failed. */
	static final Predicate<Throwable> ON_ANY_FAILURE = (failure) -> true;

	private static final long FIRST_PAUSE_MILLIS = 5;

	private static final long LONGEST_PAUSE_MILLIS = 200;

	private Resend() {
	}

	/**
	 * Sends {@code call} until it answers, fails in a way {@code retryable} rejects, or the next try
	 * would start at or after {@code deadlineNanos} (of {@link System#nanoTime()}): the returned future
	 * then fails as the last try did.
	 */
	static <T> CompletableFuture<T> until(long deadlineNanos, Predicate<Throwable> retryable,
			Supplier<CompletableFuture<T>> call) {
		CompletableFuture<T> outcome = new CompletableFuture<>();
		send(call, retryable, deadlineNanos, FIRST_PAUSE_MILLIS, outcome);
		return outcome;
	}

	private static <T> void send(Supplier<CompletableFuture<T>> call, Predicate<Throwable> retryable,
			long deadlineNanos, long pauseMillis, CompletableFuture<T> outcome) {
		CompletableFuture<T> sent;
		try {
			sent = call.get();
		}
		catch (RuntimeException ex) {
			sent = CompletableFuture.failedFuture(ex);
		}
		sent.whenComplete((answer, failure) -> {
			if (failure == null) {
				outcome.complete(answer);
				return;
			}
			Throwable cause = (failure instanceof CompletionException && failure.getCause() != null)
					? failure.getCause() : failure;
			long pause = pauseMillis / 2 + ThreadLocalRandom.current().nextLong(pauseMillis / 2 + 1);
			if (!retryable.test(cause) || System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(pause) >= deadlineNanos) {
				outcome.completeExceptionally(cause);
				return;
			}
			CompletableFuture.delayedExecutor(pause, TimeUnit.MILLISECONDS)
				.execute(() -> send(call, retryable, deadlineNanos, Math.min(2 * pauseMillis, LONGEST_PAUSE_MILLIS),
						outcome));
		});
	}

}
