package dev.locksmith.core;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Sends a store call again, with growing jittered pauses and no thread of its own, while it fails in a
 * way a later try may not, until it answers or the deadline has passed. No pause is longer than half the
 * time left, so that the try after a refusal can still be answered in time.
 */
final class Resend {

	/** Resends only calls the store refused for a passing reason. */
	static final Predicate<Throwable> WHEN_BUSY = StoreBusyException.class::isInstance;

	/** Resends on any failure: for a call whose effect matters however the store failed. */
	static final Predicate<Throwable> ON_ANY_FAILURE = (failure) -> true;

	private static final long FIRST_PAUSE_MILLIS = 5;

	private static final long LONGEST_PAUSE_MILLIS = 200;

	/** Less time left than this before the deadline, a refused call is not sent again. */
	private static final long LAST_TRY_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

	/**
	 * Sends the tries after a pause: one daemon thread at most, gone when idle. Sending only hands the call
	 * to the store's client. (The default of {@code delayedExecutor} starts a thread for every try where the
	 * common pool has a single worker, as on two cores.)
	 */
	private static final Executor SENDER = sender();

	private Resend() {
	}

	/**
	 * Sends {@code call} until it answers, fails in a way {@code retryable} rejects, or fails with less than
	 * a millisecond left before {@code deadlineNanos} (of {@link System#nanoTime()}): the returned future
	 * then fails as the last try did. A pause is cut to half the time left; a try whose pause ended after the
	 * deadline (on a starved machine) is not sent.
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
			long left = deadlineNanos - System.nanoTime();
			if (!retryable.test(cause) || left < LAST_TRY_NANOS) {
				outcome.completeExceptionally(cause);
				return;
			}
			long pause = TimeUnit.MILLISECONDS.toNanos(pauseMillis / 2
					+ ThreadLocalRandom.current().nextLong(pauseMillis / 2 + 1));
			// Never more than half the time left: a slot that stops refusing while some time is left gets a
			// try that still has half of it to be answered in.
			pause = Math.min(pause, left / 2);
			long nextPauseMillis = Math.min(2 * pauseMillis, LONGEST_PAUSE_MILLIS);
			CompletableFuture.delayedExecutor(pause, TimeUnit.NANOSECONDS, SENDER).execute(() -> {
				if (System.nanoTime() - deadlineNanos >= 0) {
					// Woken after the deadline (a starved machine): its caller stopped waiting for an answer.
					outcome.completeExceptionally(cause);
				}
				else {
					send(call, retryable, deadlineNanos, nextPauseMillis, outcome);
				}
			});
		});
	}

	private static Executor sender() {
		ThreadPoolExecutor sender = new ThreadPoolExecutor(1, 1, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
				(task) -> {
					Thread thread = new Thread(task, "locksmith-resend");
					thread.setDaemon(true);
					return thread;
				});
		sender.allowCoreThreadTimeOut(true);
		return sender;
	}

}
