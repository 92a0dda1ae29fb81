package dev.locksmith.redis;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

import dev.locksmith.core.DefaultLockService;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockInfo;
import dev.locksmith.core.LockLostEvent;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LostLeaseRecorder;
import dev.locksmith.testing.RedisServer;

import static dev.locksmith.redis.RedlockFixture.KEYS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Fencing, renewal, validity and waking on Redlock, against real {@code redis-server} processes. */
class RedlockLockServiceTests extends RedlockTestSupport {

	/**
	 * Server 0's counter is far ahead (it issued many tokens while server 1 was in no quorum). A grant by
	 * servers 0 and 1 issues server 0's token; server 0 then restarts empty. The next quorum, servers 1
	 * and 2, must still issue a higher token: only the write-back taught server 1 the highest one.
	 */
	@Test
	void fencingTokensKeepIncreasingWhenAServerRestartsEmpty() throws Exception {
		List<RedisServer> nodes = servers.first(3);
		long aheadOfTheClock = 5_000_000_000_000_000L;
		nodes.get(0).command("SET", KEYS.fenceKey("job"), Long.toString(aheadOfTheClock));
		nodes.get(2).command("SET", KEYS.lockKey("job"), FOREIGN, "PX", "30000");
		DefaultLockService locks = this.redlock.service(nodes);
		long first;
		try (LockHandle handle = locks.tryAcquire("job", LONG).orElseThrow()) {
			first = handle.fencingToken();
		}
		assertThat(first).isEqualTo(aheadOfTheClock + 1);

		nodes.get(0).restart();
		nodes.get(2).command("DEL", KEYS.lockKey("job"));
		long previous = first;
		for (int i = 0; i < 5; i++) {
			try (LockHandle handle = locks.tryAcquire("job", LONG).orElseThrow()) {
				assertThat(handle.fencingToken()).isGreaterThan(previous);
				previous = handle.fencingToken();
			}
		}
	}

	@Test
	void theLocalLeaseIsTheValidityNotTheTtl() throws Exception {
		Duration ttl = Duration.ofSeconds(10);
		LockHandle handle = this.redlock.service(servers.first(3))
			.tryAcquire("job", LockOptions.ofTtl(ttl).withRenew(false))
			.orElseThrow();

		Duration validity = ttl.minus(LeaseValidity.drift(ttl));
		assertThat(Duration.between(handle.acquiredAt(), handle.expiresAt())).isLessThanOrEqualTo(validity)
			.isGreaterThan(validity.minusSeconds(5));
	}

	@Test
	void aRenewalConfirmedByAQuorumKeepsTheLock() throws Exception {
		List<RedisServer> nodes = servers.first(3);
		DefaultLockService locks = this.redlock.service(nodes);
		LockHandle handle = locks.tryAcquire("job", LockOptions.ofTtl(Duration.ofSeconds(1))).orElseThrow();
		nodes.get(0).command("SET", KEYS.lockKey("job"), FOREIGN, "PX", "30000");

		await().until(() -> locks.heldLocks().stream().mapToLong(LockInfo::renewals).sum() >= 3);
		assertThat(handle.isHeld()).isTrue();
		assertThat(nodes.get(1).command("PTTL", KEYS.lockKey("job"))).satisfies(
				(pttl) -> assertThat(Long.parseLong(pttl)).isPositive());
	}

	@Test
	void aRenewalThatLosesItsQuorumDeclaresTheLeaseLost() throws Exception {
		List<RedisServer> nodes = servers.first(3);
		DefaultLockService locks = this.redlock.service(nodes);
		List<LockLostEvent> lost = LostLeaseRecorder.listeningTo(locks).events();
		LockHandle handle = locks.tryAcquire("job", LockOptions.ofTtl(Duration.ofSeconds(1))).orElseThrow();
		nodes.get(0).command("SET", KEYS.lockKey("job"), FOREIGN, "PX", "30000");
		nodes.get(1).command("SET", KEYS.lockKey("job"), FOREIGN, "PX", "30000");

		await().until(() -> !lost.isEmpty());
		assertThat(handle.isHeld()).isFalse();
		assertThat(lost.get(0).key()).isEqualTo("job");
	}

	@Test
	void aReleaseAnnouncedByAnyLiveServerWakesAWaiter() throws Exception {
		List<RedisServer> nodes = servers.first(3);
		DefaultLockService holder = this.redlock.service(nodes);
		DefaultLockService waiting = this.redlock.serviceBuilder(nodes).recheckInterval(Duration.ofHours(1)).build();
		nodes.get(0).kill();
		LockHandle held = holder.tryAcquire("job", LONG).orElseThrow();
		AtomicReference<Thread> waiter = new AtomicReference<>();
		CompletableFuture<Optional<LockHandle>> handed = CompletableFuture.supplyAsync(() -> {
			waiter.set(Thread.currentThread());
			try {
				return waiting.tryAcquire("job", LONG.withWaitTime(Duration.ofMinutes(1)));
			}
			catch (InterruptedException ex) {
				throw new IllegalStateException(ex);
			}
		});
		await().until(() -> waiter.get() != null && sleepsBetweenAttempts(waiter.get()));
		held.close();

		assertThat(handed.get(20, TimeUnit.SECONDS)).as("woken long before the lease or a re-check").isPresent();
		waiting.close();
	}

	/** Whether the waiter is parked between two attempts, where only a notification or a re-check wakes it. */
	private static boolean sleepsBetweenAttempts(Thread waiter) {
		return waiter.getState() == Thread.State.TIMED_WAITING && Arrays.stream(waiter.getStackTrace())
			.anyMatch((frame) -> frame.getClassName().endsWith("Waiters$Waiter") && frame.getMethodName().equals("await"));
	}

}
