package dev.locksmith.core;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.locksmith.core.Waiters.HandedLock;
import dev.locksmith.redis.RedisLockStore;
import dev.locksmith.redis.TestLockKeys;
import dev.locksmith.testing.RedisServerExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** A lock that nobody renews: {@link LockHandle#lost()} completes when its lease ends while it is still held. */
class UnrenewedLeaseEndTests {

	@RegisterExtension
	static final RedisServerExtension redisServer = new RedisServerExtension();

	private static final Duration SHORT = Duration.ofMillis(500);

	private static final Duration PATIENCE = Duration.ofSeconds(10);

	private LettuceConnectionFactory connections;

	private RedisLockStore store;

	private LockStore backend;

	private DefaultLockService locks;

	private DefaultLockService otherOwner;

	@BeforeEach
	void createServices() {
		this.connections = redisServer.server().connectionFactory();
		this.store = RedisLockStore.builder(this.connections).build();
		this.backend = this.store;
		this.locks = DefaultLockService.builder(this.backend).storeTimeout(Duration.ofSeconds(5)).build();
		this.otherOwner = DefaultLockService.builder(this.backend).storeTimeout(Duration.ofSeconds(5)).build();
	}

	@AfterEach
	void closeServices() {
		this.locks.close();
		this.otherOwner.close();
		this.store.close();
		this.connections.destroy();
	}

	@Test
	void anUnrenewedLockStillHeldWhenItsLeaseEndsSignalsItsLoss() throws Exception {
		List<LockLostEvent> lost = LostLeaseRecorder.listeningTo(this.locks).events();
		LockHandle handle = this.locks.tryAcquire("job", LockOptions.ofTtl(SHORT).withRenew(false)).orElseThrow();

		assertThat(handle.lost().toCompletableFuture()).succeedsWithin(PATIENCE);
		assertThat(handle.isHeld()).isFalse();
		await().atMost(PATIENCE).until(() -> lost.size() == 1);
		assertThat(lost).extracting(LockLostEvent::key).containsExactly("job");
		assertThat(this.locks.heldLocks()).isEmpty();
		await().atMost(PATIENCE)
			.until(() -> this.otherOwner.tryAcquire("job", LockOptions.ofTtl(SHORT).withRenew(false)).isPresent());
	}

	@Test
	void anUnrenewedLockReleasedBeforeItsLeaseEndsNeverSignalsLoss() throws Exception {
		List<LockLostEvent> lost = LostLeaseRecorder.listeningTo(this.locks).events();
		LockHandle handle = this.locks.tryAcquire("job", LockOptions.ofTtl(SHORT).withRenew(false)).orElseThrow();
		handle.close();

		await().during(SHORT.multipliedBy(3))
			.atMost(PATIENCE)
			.until(() -> !handle.lost().toCompletableFuture().isDone() && lost.isEmpty());
	}

	@Test
	void anUnrenewedLockExtendedByHandIsLostOnlyWhenItsNewLeaseEnds() throws Exception {
		LockHandle handle = this.locks.tryAcquire("job", LockOptions.ofTtl(SHORT).withRenew(false)).orElseThrow();
		assertThat(handle.extend(Duration.ofSeconds(3))).isTrue();

		await().during(SHORT.multipliedBy(3))
			.atMost(PATIENCE)
			.until(() -> handle.isHeld() && !handle.lost().toCompletableFuture().isDone());
		assertThat(handle.lost().toCompletableFuture()).succeedsWithin(PATIENCE);
		await().atMost(PATIENCE).until(() -> this.otherOwner.tryAcquire("job", LockOptions.ofTtl(SHORT)).isPresent());
	}

	@Test
	void anUnrenewedLockShortenedByHandIsLostWhenItsShorterLeaseEnds() throws Exception {
		LockHandle handle = this.locks.tryAcquire("job", LockOptions.ofTtl(Duration.ofSeconds(30)).withRenew(false))
			.orElseThrow();
		assertThat(handle.extend(SHORT)).isTrue();

		assertThat(handle.lost().toCompletableFuture()).succeedsWithin(PATIENCE);
	}

	@Test
	void aHandedLockNobodyRenewsKeepsWhatIsLeftOfItsLeaseSinceTheHandOverWasToldHowEverLateItsWaiterWakes() {
		String lockKey = TestLockKeys.lockKey("job");
		String owner = "waiter:0123456789abcdef0123456789abcdef";
		// the release's hand-over, under a claim longer than any lease below
		redisServer.server().command("SET", lockKey, owner, "PX", "10000");
		LockRequest request = new LockRequest(List.of("job"), LockOwner.exclusive(owner),
				LockOptions.ofTtl(Duration.ofSeconds(3)).withRenew(false), null);
		long toldTwoSecondsAgo = System.nanoTime() - Duration.ofSeconds(2).toNanos();

		this.locks.leases()
			.handed(request, new HandedLock(1, Duration.ofSeconds(10), toldTwoSecondsAgo), System.nanoTime());

		long pttl = await().atMost(PATIENCE)
			.until(() -> Long.parseLong(redisServer.server().command("PTTL", lockKey)), (left) -> left < 5000);
		assertThat(pttl).as("the 3s lease less the 2s since the hand-over was told").isLessThanOrEqualTo(1000);
	}

	@Test
	void aLockOfAnEngineThatDoesNotRenewIsLostWhenItsLeaseEnds() throws Exception {
		try (DefaultLockService withoutRenewal = DefaultLockService.builder(this.backend).renewal(false).build()) {
			LockHandle handle = withoutRenewal.tryAcquire("job", LockOptions.ofTtl(SHORT)).orElseThrow();

			assertThat(handle.lost().toCompletableFuture()).succeedsWithin(PATIENCE);
			assertThat(handle.isHeld()).isFalse();
		}
	}

}
