package dev.locksmith.redis;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.locksmith.core.DefaultLockService;
import dev.locksmith.core.LockBusyException;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockOptions;
import dev.locksmith.testing.RedisServerExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * The retry hint of a busy lock: the remaining lease, or the longest of the recent holds of the lock's
 * name when those ended sooner, since a renewed lease is nearly a whole ttl ahead however soon the work
 * ends.
 */
class RetryAfterHintTests {

	@RegisterExtension
	static final RedisServerExtension redisServer = new RedisServerExtension();

	@RegisterExtension
	final RedisFixture fixture = new RedisFixture(() -> redisServer.server().connectionFactory());

	private static final LockOptions REPORT = LockOptions.ofTtl(Duration.ofSeconds(20)).withName("report");

	@Test
	void aRenewedLockWhoseRecentHoldsWereShortGivesAHintOfThoseHoldsNotOfItsLease() throws Exception {
		DefaultLockService locks = this.fixture.service();
		for (int i = 0; i < 3; i++) {
			locks.acquire("report:" + i, REPORT).close();
		}
		try (LockHandle held = locks.acquire("report:7", REPORT)) {
			LockBusyException busy = catchThrowableOfType(LockBusyException.class,
					() -> locks.acquire("report:7", REPORT));
			// three holds of a few milliseconds, where the lease had almost 20 s left
			assertThat(busy.getRetryAfter()).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(3));
		}
	}

	@Test
	void withoutRecentHoldsOfItsNameTheHintIsTheRemainingLease() throws Exception {
		DefaultLockService locks = this.fixture.service();
		locks.acquire("other:1", LockOptions.ofTtl(Duration.ofSeconds(20)).withName("other")).close();
		try (LockHandle held = locks.acquire("report:7", REPORT)) {
			LockBusyException busy = catchThrowableOfType(LockBusyException.class,
					() -> locks.acquire("report:7", REPORT));
			assertThat(busy.getRetryAfter()).isGreaterThan(Duration.ofSeconds(15))
				.isLessThanOrEqualTo(Duration.ofSeconds(20));
		}
	}

	@Test
	void aHoldLongerThanTheRemainingLeaseLeavesTheRemainingLeaseAsTheHint() throws Exception {
		DefaultLockService locks = this.fixture.service();
		locks.acquire("report:1", REPORT.withTtl(Duration.ofSeconds(40)).withHoldAtLeast(Duration.ofSeconds(30)))
			.close();
		try (LockHandle held = locks.acquire("report:7", REPORT)) {
			LockBusyException busy = catchThrowableOfType(LockBusyException.class,
					() -> locks.acquire("report:7", REPORT));
			// the minimum hold counts as held: 30 s, more than the 20 s lease can have left
			assertThat(busy.getRetryAfter()).isGreaterThan(Duration.ofSeconds(15))
				.isLessThanOrEqualTo(Duration.ofSeconds(20));
		}
	}

}
