package dev.locksmith.redis;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.jspecify.annotations.Nullable;

import dev.locksmith.core.LockUnavailableException;
import dev.locksmith.core.StoreFailures;

/**
 * What one server answered to a call sent to every server, or why it did not answer in time.
 *
 * @param index the server's place among all servers
 * @param node the server's name
 * @param value its answer, when it gave one
 * @param failure why it gave none: an error, or silence past the node timeout
 */
record NodeAnswer<T>(int index, String node, @Nullable T value, @Nullable Throwable failure) {

	/** Whether the server answered. */
	boolean answered() {
		return this.failure == null;
	}

	/**
	 * Sends {@code call} to every node at once and completes when each answered or its {@code timeout}
	 * passed. The calls are asynchronous: no thread waits per node; the timeouts share the JDK's timer.
	 */
	static <N, T> CompletableFuture<List<NodeAnswer<T>>> askAll(List<N> nodes, Function<N, CompletableFuture<T>> call,
			Duration timeout) {
		List<CompletableFuture<NodeAnswer<T>>> answers = IntStream.range(0, nodes.size())
			.mapToObj((i) -> send(nodes.get(i), call).orTimeout(timeout.toNanos(), TimeUnit.NANOSECONDS)
				.handle((value, failure) -> new NodeAnswer<>(i, nodes.get(i).toString(), value,
						named(unwrap(failure), timeout))))
			.toList();
		return CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new))
			.thenApply((done) -> answers.stream().map(CompletableFuture::join).toList());
	}

	/** How many of {@code answers} came back. */
	static int answeredCount(List<? extends NodeAnswer<?>> answers) {
		return (int) answers.stream().filter(NodeAnswer::answered).count();
	}

	/**
	 * Fails unless a quorum answered: too few servers answered {@code what} within {@code timeout} to
	 * know the lock's state.
	 */
	static void requireQuorum(List<? extends NodeAnswer<?>> answers, Quorum quorum, String what, Duration timeout) {
		int answered = answeredCount(answers);
		if (!quorum.reachedBy(answered)) {
			throw new LockUnavailableException("Only " + answered + " of " + answers.size()
					+ " Redis servers answered the " + what + " within " + timeout.toMillis() + "ms, a quorum needs "
					+ quorum.size() + ": " + failures(answers), answers.stream()
						.map(NodeAnswer::failure)
						.filter((failure) -> failure != null)
						.findFirst()
						.orElse(null),
					StoreFailures.noQuorum(answered, answers.size()));
		}
	}

	private static String failures(List<? extends NodeAnswer<?>> answers) {
		return answers.stream()
			.filter((answer) -> !answer.answered())
			.map((answer) -> answer.node() + " " + answer.problem())
			.collect(Collectors.joining(", "));
	}

	/** Why the server gave no answer, in {@link StoreFailures#reason}'s words: {@code timed out after 2s}. */
	String problem() {
		return (this.failure != null) ? StoreFailures.reason(this.failure) : "answered";
	}

	private static <N, T> CompletableFuture<T> send(N node, Function<N, CompletableFuture<T>> call) {
		try {
			return call.apply(node);
		}
		catch (RuntimeException ex) {
			return CompletableFuture.failedFuture(ex);
		}
	}

	/** A node's silence, as a timeout that says how long it lasted. */
	private static @Nullable Throwable named(@Nullable Throwable failure, Duration timeout) {
		return (failure instanceof TimeoutException && failure.getMessage() == null)
				? new TimeoutException(StoreFailures.timedOut(timeout)) : failure;
	}

	private static @Nullable Throwable unwrap(@Nullable Throwable failure) {
		return (failure instanceof CompletionException && failure.getCause() != null) ? failure.getCause() : failure;
	}

}
