package dev.locksmith.core;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import dev.locksmith.core.StoreBusyException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

/** How a refused store call is sent again: until its deadline, the last try early enough to be answered. */
class ResendTests {

	private static final Duration WITHIN = Duration.ofSeconds(2);

	/** Sends refused at once: enough for the pause to grow to its longest, 100 to 200 ms. */
	private static final int QUICK_REFUSALS = 6;

	@Test
	void aCallRefusedLessThanAPauseBeforeItsDeadlineIsSentOnceMoreInTime() throws Exception {
		long deadline = System.nanoTime() + WITHIN.toNanos();
		List<Long> sentAt = new CopyOnWriteArrayList<>();
		AtomicLong leftAtLastRefusal = new AtomicLong();
		CompletableFuture<String> outcome = Resend.until(deadline, Resend.WHEN_BUSY, () -> {
			sentAt.add(System.nanoTime());
			if (sentAt.size() <= QUICK_REFUSALS) {
				return CompletableFuture.failedFuture(refusal());
			}
			if (sentAt.size() == QUICK_REFUSALS + 1) {
				// The slot refuses this one 90 ms before the deadline: less than the shortest pause by then.
				CompletableFuture<String> refused = new CompletableFuture<>();
				long delay = deadline - TimeUnit.MILLISECONDS.toNanos(90) - System.nanoTime();
				CompletableFuture.delayedExecutor(delay, TimeUnit.NANOSECONDS).execute(() -> {
					leftAtLastRefusal.set(deadline - System.nanoTime());
					refused.completeExceptionally(refusal());
				});
				return refused;
			}
			return CompletableFuture.completedFuture("answered");
		});

		String answer = outcome.handle((answered, failure) -> (failure != null) ? failure.toString() : answered)
			.get(WITHIN.toMillis() + 1000, TimeUnit.MILLISECONDS);
		assumeThat(leftAtLastRefusal.get()).as("the machine delivered the refusal before the deadline's last 20 ms")
			.isGreaterThan(TimeUnit.MILLISECONDS.toNanos(20));
		assertThat(answer).isEqualTo("answered");
		assertThat(sentAt).hasSize(QUICK_REFUSALS + 2);
		assertThat(sentAt.get(sentAt.size() - 1)).as("the last try went out before the deadline").isLessThan(deadline);
	}

	@Test
	void aCallRefusedUntilItsDeadlineFailsAsTheLastTryDidAndIsNotSentAfterIt() throws Exception {
		long deadline = System.nanoTime() + Duration.ofMillis(300).toNanos();
		List<Long> sentAt = new CopyOnWriteArrayList<>();
		CompletableFuture<String> outcome = Resend.until(deadline, Resend.WHEN_BUSY, () -> {
			sentAt.add(System.nanoTime());
			return CompletableFuture.failedFuture(refusal());
		});

		assertThat(outcome).failsWithin(Duration.ofSeconds(5))
			.withThrowableThat()
			.withCauseInstanceOf(StoreBusyException.class)
			.withMessageContaining("TRYAGAIN");
		long finished = System.nanoTime();
		assertThat(sentAt).allMatch((sent) -> sent < deadline, "sent before the deadline");
		assertThat(finished).isGreaterThanOrEqualTo(deadline - TimeUnit.MILLISECONDS.toNanos(1));
	}

	private static StoreBusyException refusal() {
		return new StoreBusyException("Redis failed acquire of 'a': TRYAGAIN Multiple keys request during rehashing",
				null);
	}

}
