package dev.locksmith.core;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import io.micrometer.observation.Observation;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import java.util.Map;

/** The local view of a lease errs short of the store's: the latest request sets it, and of two that crossed, the shorter. */
class LeaseTests {

	private static final long SENT_AT = 1_000_000_000L;

	@Test
	void aLeaseLastsTheWholeMillisecondsTheStoreIsAskedForLessTheDriftAllowance() {
		assertThat(Lease.of(SENT_AT, Duration.ofNanos(1_500_000), Duration.ZERO).deadlineNanos())
			.as("1.5ms is sent as PX 1").isEqualTo(SENT_AT + 1_000_000);
		assertThat(Lease.of(SENT_AT, Duration.ofSeconds(30), Duration.ofMillis(10)).deadlineNanos())
			.isEqualTo(SENT_AT + Duration.ofMillis(29_990).toNanos());
		assertThat(Lease.of(SENT_AT, Duration.ofSeconds(30), Duration.ofMillis(10)).renewalDueNanos())
			.isEqualTo(SENT_AT + Duration.ofSeconds(10).toNanos());
	}

	@Test
	void theLongestLeaseADurationCountsInNanosecondsExpiresCenturiesAheadOnTheWallClock() {
		Duration longest = Duration.ofDays(106_751);
		DefaultLockHandle handle = new DefaultLockHandle(null, List.of("job"), LockOwner.exclusive("owner"), Map.of("job", 1L),
				LockOptions.ofTtl(longest), Duration.ZERO, System.nanoTime(), longest, Observation.NOOP);
		Instant expiresAt = handle.expiresAt();
		assertThat(expiresAt).isBetween(Instant.now().plus(longest).minusSeconds(60), Instant.now().plus(longest));
	}

	@Test
	void aHeldLocksTimesAreTheSameAtEveryCall() throws Exception {
		try (DefaultLockService locks = DefaultLockService.builder(new FakeLockBackend()).build()) {
			LockHandle handle = locks.tryAcquire("job", LockOptions.ofTtl(Duration.ofMinutes(5)).withRenew(false)).orElseThrow();
			Instant acquiredAt = handle.acquiredAt();
			Instant expiresAt = handle.expiresAt();
			// until the wall clock is more than a second past the grant: longer than any period at which the
			// times might be placed on it again
			await().atMost(Duration.ofSeconds(10))
				.until(() -> Duration.between(acquiredAt, Instant.now()).compareTo(Duration.ofMillis(1_100)) > 0);
			assertThat(handle.acquiredAt()).isEqualTo(acquiredAt);
			assertThat(handle.expiresAt()).isEqualTo(expiresAt);
			assertThat(Duration.between(acquiredAt, expiresAt)).isBetween(Duration.ofMinutes(4),
					Duration.ofMinutes(5));
		}
	}

	@Test
	void aRenewalSentBeforeAShorterExtensionDoesNotOverwriteItWhenItsAnswerComesLater() {
		DefaultLockHandle handle = new DefaultLockHandle(null, List.of("job"), LockOwner.exclusive("owner"), Map.of("job", 1L),
				LockOptions.ofTtl(Duration.ofSeconds(30)), Duration.ofMillis(10), SENT_AT, Duration.ofSeconds(30), Observation.NOOP);
		long renewalSentAt = SENT_AT + 100;
		long extensionSentAt = SENT_AT + 200;

		handle.leaseStarted(extensionSentAt, Duration.ofSeconds(1));
		handle.renewed(renewalSentAt);

		assertThat(handle.leaseDeadlineNanos()).isEqualTo(extensionSentAt + Duration.ofMillis(990).toNanos());
		assertThat(handle.renewalDueNanos()).isEqualTo(extensionSentAt + Duration.ofSeconds(1).toNanos() / 3);
	}

	@Test
	void aLongerExtensionThatCrossedARenewalCountsOnlyTheShorterLease() {
		DefaultLockHandle handle = new DefaultLockHandle(null, List.of("job"), LockOwner.exclusive("owner"), Map.of("job", 1L),
				LockOptions.ofTtl(Duration.ofSeconds(30)), Duration.ofMillis(10), System.nanoTime(), Duration.ofSeconds(30), Observation.NOOP);
		long renewalSentAt = System.nanoTime();
		long extensionSentAt = renewalSentAt + 100;

		handle.leaseStarted(extensionSentAt, Duration.ofSeconds(60));
		handle.renewed(renewalSentAt);

		assertThat(handle.leaseDeadlineNanos()).as("the store may have applied the 30s renewal last")
			.isEqualTo(renewalSentAt + Duration.ofMillis(29_990).toNanos());
	}

	@Test
	void anExtensionSentAfterTheRenewalWasAnsweredCounts() {
		DefaultLockHandle handle = new DefaultLockHandle(null, List.of("job"), LockOwner.exclusive("owner"), Map.of("job", 1L),
				LockOptions.ofTtl(Duration.ofSeconds(30)), Duration.ofMillis(10), System.nanoTime(), Duration.ofSeconds(30), Observation.NOOP);
		handle.renewed(System.nanoTime());
		long extensionSentAt = System.nanoTime();

		handle.leaseStarted(extensionSentAt, Duration.ofSeconds(5));

		assertThat(handle.leaseDeadlineNanos()).isEqualTo(extensionSentAt + Duration.ofMillis(4_990).toNanos());
	}

	@Test
	void aHandleIsNotHeldOnceItsLocalLeaseRanOut() {
		long sentLongAgo = System.nanoTime() - Duration.ofMillis(995).toNanos();
		DefaultLockHandle handle = new DefaultLockHandle(null, List.of("job"), LockOwner.exclusive("owner"), Map.of("job", 1L),
				LockOptions.ofTtl(Duration.ofSeconds(1)), Duration.ofMillis(10), sentLongAgo, Duration.ofSeconds(1), Observation.NOOP);

		// leaseRuns() is isHeld() without reporting the loss: this handle belongs to no engine that could count it.
		assertThat(handle.leaseRuns()).as("995ms into a 1s lease, within the 10ms drift allowance").isFalse();
	}

}
