package dev.locksmith.adapters.integration;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.integration.leader.Context;
import org.springframework.integration.leader.DefaultCandidate;
import org.springframework.integration.support.leader.LockRegistryLeaderInitiator;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

import dev.locksmith.adapters.RedisLockServices;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockService;
import dev.locksmith.testing.RedisServerExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * The documented semantics of Spring Integration's {@code LockRegistry}, {@code RenewableLockRegistry} and
 * {@code DistributedLock}, on a real Redis, and its {@code LockRegistryLeaderInitiator} on the registry.
 */
class LocksmithLockRegistryTests {

	@RegisterExtension
	static final RedisServerExtension redisServer = new RedisServerExtension();

	private RedisLockServices services;

	private LockService locks;

	private LocksmithLockRegistry registry;

	@BeforeEach
	void connect() {
		this.services = new RedisLockServices(redisServer.server());
		this.locks = this.services.newService();
		this.registry = new LocksmithLockRegistry(this.locks);
	}

	@AfterEach
	void close() throws Exception {
		this.services.close();
	}

	@Test
	void obtainGivesOneLockPerKey() {
		assertThat(this.registry.obtain("orders:1")).isSameAs(this.registry.obtain("orders:1"))
			.isNotSameAs(this.registry.obtain("orders:2"));
		assertThat(this.registry.obtain("orders:1").key()).isEqualTo("orders:1");
	}

	@Test
	void obtainRejectsAKeyThatIsNotAString() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.registry.obtain(42))
			.withMessageContaining("String");
	}

	@Test
	void executeLockedRunsTheTaskUnderTheLockAndReleasesIt() throws Exception {
		boolean lockedWhileRunning = this.registry.executeLocked("orders:1", () -> this.locks.isLocked("orders:1"));

		assertThat(lockedWhileRunning).isTrue();
		assertThat(this.locks.isLocked("orders:1")).isFalse();
	}

	@Test
	void executeLockedGivesUpWithATimeoutWhileAnotherProcessHoldsTheLock() throws Exception {
		LocksmithLockRegistry otherProcess = new LocksmithLockRegistry(this.services.newService());
		LocksmithDistributedLock held = otherProcess.obtain("orders:1");
		held.lock();

		assertThatExceptionOfType(TimeoutException.class)
			.isThrownBy(() -> this.registry.executeLocked("orders:1", Duration.ofMillis(200), () -> {
			}));
		held.unlock();
	}

	@Test
	void aDistributedLockTakesTheLeaseItIsGiven() throws Exception {
		LocksmithDistributedLock lock = this.registry.obtain("orders:1");

		lock.lock(Duration.ofMinutes(5));
		assertThat(this.services.leaseMillis("orders:1")).isGreaterThan(Duration.ofMinutes(4).toMillis());
		lock.unlock();

		assertThat(lock.tryLock(Duration.ZERO, Duration.ofSeconds(3))).isTrue();
		assertThat(this.services.leaseMillis("orders:1")).isBetween(1L, 3_000L);
		lock.unlock();
	}

	@Test
	void renewLockExtendsTheLeaseOfTheLockThisThreadHolds() {
		LocksmithLockRegistry unrenewed = new LocksmithLockRegistry(this.locks,
				LockOptions.ofTtl(Duration.ofSeconds(5)).withRenew(false));
		unrenewed.obtain("orders:1").lock();

		unrenewed.renewLock("orders:1", Duration.ofMinutes(5));
		assertThat(this.services.leaseMillis("orders:1")).isGreaterThan(Duration.ofMinutes(4).toMillis());
		unrenewed.renewLock("orders:1");
		assertThat(this.services.leaseMillis("orders:1")).isBetween(1L, 5_000L);

		unrenewed.obtain("orders:1").unlock();
	}

	@Test
	void aRenewalTaskSchedulerIsIgnoredWhileLocksmithRenewsTheLease() {
		ThreadPoolTaskScheduler scheduler = new ThreadPoolTaskScheduler();
		scheduler.initialize();
		try {
			Duration ttl = Duration.ofSeconds(2);
			LocksmithLockRegistry renewed = new LocksmithLockRegistry(this.locks, LockOptions.ofTtl(ttl));
			renewed.setRenewalTaskScheduler(scheduler);
			renewed.obtain("orders:1").lock();

			await().during(ttl.plusSeconds(1))
				.atMost(ttl.multipliedBy(3))
				.until(() -> this.services.leaseMillis("orders:1") > 0);

			assertThat(scheduler.getScheduledThreadPoolExecutor().getTaskCount()).isZero();
			renewed.obtain("orders:1").unlock();
		}
		finally {
			scheduler.shutdown();
		}
	}

	@Test
	void renewLockOfALockThisThreadDoesNotHoldIsRejected() throws Exception {
		this.registry.obtain("orders:1").lock();

		CompletableFuture<Void> renewal = CompletableFuture.runAsync(() -> this.registry.renewLock("orders:1"));

		assertThat(renewal).failsWithin(Duration.ofSeconds(5))
			.withThrowableOfType(java.util.concurrent.ExecutionException.class)
			.withCauseInstanceOf(IllegalMonitorStateException.class);
		this.registry.obtain("orders:1").unlock();
	}

	@Test
	void theLeaderInitiatorElectsOneLeaderAmongThreeRegistriesAndAnotherWhenTheLeaderStops() {
		List<LocksmithLockRegistry> registries = new ArrayList<>();
		List<LockRegistryLeaderInitiator> initiators = new ArrayList<>();
		AtomicInteger leader = new AtomicInteger(-1);
		AtomicInteger grants = new AtomicInteger();
		AtomicInteger grantsWhileAnotherHeld = new AtomicInteger();
		for (int i = 0; i < 3; i++) {
			int self = i;
			LocksmithLockRegistry registry = (i == 0) ? this.registry
					: new LocksmithLockRegistry(this.services.newService());
			registries.add(registry);
			LockRegistryLeaderInitiator initiator = new LockRegistryLeaderInitiator(registry,
					new DefaultCandidate("node-" + i, "cleanup") {

						@Override
						public void onGranted(Context context) {
							grants.incrementAndGet();
							boolean anotherHolds = registries.stream()
								.filter((other) -> other != registry)
								.anyMatch((other) -> other.obtain("cleanup").isHeldLocally());
							if (anotherHolds) {
								grantsWhileAnotherHeld.incrementAndGet();
							}
							leader.set(self);
						}

					});
			initiator.setHeartBeatMillis(100);
			initiator.setBusyWaitMillis(20);
			initiators.add(initiator);
		}
		try {
			initiators.forEach(LockRegistryLeaderInitiator::start);
			await().until(() -> leaderCount(initiators) == 1);
			int first = leader.get();

			initiators.get(first).stop();

			await().until(() -> leaderCount(initiators) == 1 && leader.get() != first);
			assertThat(grants).hasValue(2);
			assertThat(grantsWhileAnotherHeld).hasValue(0);
		}
		finally {
			initiators.forEach(LockRegistryLeaderInitiator::stop);
		}
	}

	@Test
	void aLeaderWhoseLockIsTakenByAnotherOwnerIsRevoked() throws Exception {
		LocksmithLockRegistry renewedOften = new LocksmithLockRegistry(this.locks,
				LockOptions.ofTtl(Duration.ofSeconds(3)));
		LockRegistryLeaderInitiator initiator = new LockRegistryLeaderInitiator(renewedOften,
				new DefaultCandidate("node-0", "cleanup"));
		initiator.setHeartBeatMillis(100);
		initiator.setBusyWaitMillis(20);
		LockService outsider = this.services.newService();
		try {
			initiator.start();
			await().until(() -> initiator.getContext().isLeader());

			redisServer.server().command("DEL", "lock:{cleanup}");
			assertThat(outsider.tryAcquire("cleanup", LockOptions.ofTtl(Duration.ofSeconds(30)))).isPresent();

			await().atMost(Duration.ofSeconds(10)).until(() -> !initiator.getContext().isLeader());
			assertThat(renewedOften.obtain("cleanup").isHeldLocally()).isFalse();
		}
		finally {
			initiator.stop();
		}
	}

	private static long leaderCount(List<LockRegistryLeaderInitiator> initiators) {
		return initiators.stream().filter((initiator) -> initiator.getContext().isLeader()).count();
	}

}
