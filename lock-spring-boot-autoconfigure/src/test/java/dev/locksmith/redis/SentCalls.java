package dev.locksmith.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import dev.locksmith.core.LockOwner;
import dev.locksmith.core.LockStore.AcquireRequest;
import dev.locksmith.core.ReleaseNotifications.Listener;

/**
 * A Redis backend that records every script it sends, by owner token, with when it was sent and how
 * it was answered, and which thread last asked for a lock with which owner token: so that a test can
 * say of a lock call that failed how often it was sent and why each send failed.
 */
final class SentCalls extends ForwardingLockBackend {

	private final Map<String, Queue<Send>> byOwnerToken = new ConcurrentHashMap<>();

	private final Map<Thread, String> lastAcquireBy = new ConcurrentHashMap<>();

	SentCalls(RedisLockBackend delegate) {
		super(delegate);
	}

	@Override
	public CompletableFuture<AcquireResult> tryAcquire(AcquireRequest request) {
		String ownerToken = request.owner().token();
		this.lastAcquireBy.put(Thread.currentThread(), ownerToken);
		return recorded("acquire", ownerToken, super.tryAcquire(request));
	}

	@Override
	public CompletableFuture<Integer> release(List<String> keys, LockOwner owner, Listener handOvers) {
		return recorded("release", owner.token(), super.release(keys, owner, handOvers));
	}

	@Override
	public List<CompletableFuture<Boolean>> extend(List<LeaseExtension> leases) {
		List<CompletableFuture<Boolean>> answers = super.extend(leases);
		for (int i = 0; i < answers.size(); i++) {
			recorded("extend", leases.get(i).owner().token(), answers.get(i));
		}
		return answers;
	}

	@Override
	public Duration claimLease() {
		return delegate().claimLease();
	}

	@Override
	public boolean grantsShares() {
		return delegate().grantsShares();
	}

	/** The owner token with which {@code thread} last asked for a lock, or null. */
	String lastAcquireBy(Thread thread) {
		return this.lastAcquireBy.get(thread);
	}

	/**
	 * What was sent with {@code ownerToken}, counted by operation and outcome, then each send in order with
	 * its time from {@code sinceNanos}: {@code +12ms acquire: TRYAGAIN (+13ms)}.
	 */
	String describe(String ownerToken, long sinceNanos) {
		List<Send> sends = new ArrayList<>(this.byOwnerToken.getOrDefault(ownerToken, new ConcurrentLinkedQueue<>()));
		Map<String, Long> counts = sends.stream()
			.collect(Collectors.groupingBy((send) -> send.operation() + " " + send.shortOutcome(), TreeMap::new,
					Collectors.counting()));
		return sends.size() + " send(s) " + counts + ": " + sends.stream()
			.map((send) -> send.describe(sinceNanos))
			.collect(Collectors.joining(", "));
	}

	/**
	 * The longest that a send of {@code ownerToken} waited until {@code untilNanos}: for its answer, or
	 * after a refused send's answer, beyond the longest pause, for the next send.
	 */
	long longestDelayNanos(String ownerToken, long untilNanos, long longestPauseNanos) {
		long longest = 0;
		Answer previous = null;
		for (Send send : this.byOwnerToken.getOrDefault(ownerToken, new ConcurrentLinkedQueue<>())) {
			if (send.sentAtNanos() > untilNanos) {
				break;
			}
			if (previous != null) {
				longest = Math.max(longest, send.sentAtNanos() - previous.atNanos() - longestPauseNanos);
			}
			Answer answer = send.outcome().getNow(null);
			long answeredAt = (answer != null) ? Math.min(answer.atNanos(), untilNanos) : untilNanos;
			longest = Math.max(longest, answeredAt - send.sentAtNanos());
			previous = answer;
		}
		return longest;
	}

	private <T> CompletableFuture<T> recorded(String operation, String ownerToken, CompletableFuture<T> answer) {
		Send send = new Send(operation, System.nanoTime(), new CompletableFuture<>());
		this.byOwnerToken.computeIfAbsent(ownerToken, (token) -> new ConcurrentLinkedQueue<>()).add(send);
		answer.whenComplete((result, failure) -> send.outcome()
			.complete(new Answer(System.nanoTime(), (failure != null) ? reason(failure) : "ok")));
		return answer;
	}

	/** The innermost cause's class and message: {@code RedisCommandExecutionException: TRYAGAIN ...}. */
	static String reason(Throwable failure) {
		Throwable innermost = failure;
		while (innermost.getCause() != null && innermost.getCause() != innermost) {
			innermost = innermost.getCause();
		}
		String outer = (failure instanceof CompletionException) ? "" : failure.getClass().getSimpleName() + " < ";
		return outer + innermost.getClass().getSimpleName() + ": " + innermost.getMessage();
	}

	private record Answer(long atNanos, String outcome) {
	}

	private record Send(String operation, long sentAtNanos, CompletableFuture<Answer> outcome) {

		String shortOutcome() {
			Answer answer = this.outcome.getNow(null);
			if (answer == null) {
				return "unanswered";
			}
			String text = answer.outcome();
			int colon = text.indexOf(": ");
			String message = (colon >= 0) ? text.substring(colon + 2) : text;
			return message.contains("non local key") ? "non-local-key" : message.split(" ", 2)[0];
		}

		String describe(long sinceNanos) {
			Answer answer = this.outcome.getNow(null);
			return "+" + millis(this.sentAtNanos - sinceNanos) + "ms " + this.operation + ": "
					+ ((answer != null) ? answer.outcome() + " (+" + millis(answer.atNanos() - sinceNanos) + "ms)"
							: "unanswered");
		}

		private static long millis(long nanos) {
			return TimeUnit.NANOSECONDS.toMillis(nanos);
		}

	}

}
