package dev.locksmith.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.locksmith.core.LockStore.LeaseExtension;
import dev.locksmith.redis.RedisLockStore;
import dev.locksmith.testing.RedisServer;
import dev.locksmith.testing.RedisServerExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

/** The renewal watchdog under load: batched calls, and nothing left behind. */
class LeaseRenewalTests {

	@RegisterExtension
	static final RedisServerExtension redisServer = new RedisServerExtension();

	private RedisServer redis;

	private LettuceConnectionFactory connections;

	private RedisLockStore store;

	private LockStore backend;

	private DefaultLockService locks;

	@BeforeEach
	void createService() {
		this.redis = redisServer.server();
		this.connections = this.redis.connectionFactory();
		this.store = RedisLockStore.builder(this.connections).build();
		this.backend = this.store;
		this.locks = DefaultLockService.builder(this.backend).storeTimeout(Duration.ofSeconds(5)).build();
		// The first store call of a cold JVM (connecting, loading classes and scripts) can outlast the store
		// timeout on a loaded machine; pay for it here, not inside the behaviour under test. Extending a lease
		// nobody holds goes through the whole store path and leaves no key behind.
		await().atMost(Duration.ofMinutes(1))
			.ignoreExceptions()
			.until(() -> this.backend.extend(List.of(new LeaseExtension("warm-up", LockOwner.exclusive("nobody"), Duration.ofSeconds(1))))
				.get(0)
				.get(5, TimeUnit.SECONDS), (extended) -> !extended);
	}

	@AfterEach
	void closeService() {
		this.locks.close();
		this.store.close();
		this.connections.destroy();
	}

	@Test
	void tenThousandHeldLocksAreRenewedWithAtMostOneCallPerHundredLocks() throws Exception {
		LockOptions lease = LockOptions.ofTtl(Duration.ofSeconds(3));
		List<LockHandle> handles = acquireInParallel(10_000, lease);
		// Renewals may already have run while the locks were being acquired: count renewals and calls from
		// the same moment. Only the one renewal call in flight across the reset (at most BATCH_SIZE leases)
		// can be counted as renewals without its call; every call counted has its renewals counted.
		long renewalsAtReset = totalRenewals();
		this.redis.resetStats();

		await().atMost(Duration.ofSeconds(30)).until(() -> totalRenewals() - renewalsAtReset >= 20_000);
		long calls = this.redis.callsOf("evalsha");
		long renewals = totalRenewals() - renewalsAtReset;
		handles.forEach(LockHandle::close);

		assertThat(calls).as("renewal calls for %d renewals", renewals).isPositive().isLessThanOrEqualTo(renewals / 100);
		assertThat(renewer().size()).isZero();
		this.redis.resetStats();
		await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(3)).until(() -> this.redis.callsOf("evalsha") == 0);
	}

	@Test
	@Tag("soak")
	void aHundredThousandAcquireReleaseCyclesLeaveNoRenewalBehind() throws Exception {
		LockOptions lease = LockOptions.ofTtl(Duration.ofSeconds(30));
		List<CompletableFuture<Void>> workers = new ArrayList<>();
		for (int w = 0; w < 8; w++) {
			int worker = w;
			workers.add(CompletableFuture.runAsync(() -> {
				for (int i = 0; i < 12_500; i++) {
					try (LockHandle handle = tryAcquire("cycle:" + worker + ":" + (i % 50), lease)) {
						assertThat(handle.isHeld()).isTrue();
					}
				}
			}));
		}
		CompletableFuture.allOf(workers.toArray(CompletableFuture[]::new)).get(5, TimeUnit.MINUTES);

		assertThat(this.locks.heldLocks()).isEmpty();
		assertThat(renewer().size()).isZero();
		assertThat(renewer().pendingTicks()).as("at most the next, idle tick").isLessThanOrEqualTo(1);
		assertThat(this.redis.command("DBSIZE")).as("only fencing counters remain").isEqualTo("400");
	}

	@Test
	void aRenewalRacingAReleaseNeverBringsTheLockBack() throws Exception {
		LockOptions shortLease = LockOptions.ofTtl(Duration.ofMillis(30));
		for (int i = 0; i < 300; i++) {
			LockHandle handle = tryAcquire("race", shortLease);
			long renewals = 1 + i % 3;
			await().atMost(Duration.ofSeconds(10))
				.pollInterval(Duration.ofMillis(2))
				.until(() -> this.locks.heldLocks().stream().allMatch((lock) -> lock.renewals() >= renewals));
			handle.close();
			assertThat(this.redis.command("EXISTS", "lock:{race}")).as("round %d", i).isEqualTo("0");
		}
	}

	@Test
	void renewalRetriesWhileRedisIsSilentAndDeclaresTheLeaseLostWhenItRunsOut() throws Exception {
		List<LockLostEvent> lost = LostLeaseRecorder.listeningTo(this.locks).events();
		LockHandle shortOutage = tryAcquire("short-outage", LockOptions.ofTtl(Duration.ofSeconds(3)));
		LockHandle longOutage = tryAcquire("long-outage", LockOptions.ofTtl(Duration.ofMillis(900)));
		this.redis.pause();
		try {
			await().atMost(Duration.ofSeconds(10)).until(() -> !longOutage.isHeld());
		}
		finally {
			this.redis.resume();
		}

		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(lost).extracting(LockLostEvent::key).containsExactly("long-outage"));
		assertThat(shortOutage.isHeld()).as("renewed once Redis answered again").isTrue();
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(this.locks.heldLocks()).singleElement()
				.satisfies((lock) -> assertThat(lock.renewals()).isPositive()));
	}

	@Test
	void aLostLockOfSeveralKeysIsReportedForEachKeyWithItsOwnToken() throws Exception {
		List<LockLostEvent> lost = LostLeaseRecorder.listeningTo(this.locks).events();
		LockHandle both = this.locks.tryAcquireAll(List.of("a", "b"), LockOptions.ofTtl(Duration.ofMillis(1500)))
			.orElseThrow();
		this.redis.command("DEL", "lock:{a}");

		await().atMost(Duration.ofSeconds(10)).until(() -> lost.size() == 2);
		assertThat(lost).extracting(LockLostEvent::key, LockLostEvent::fencingToken)
			.containsExactlyInAnyOrder(tuple("a", both.fencingToken("a")), tuple("b", both.fencingToken("b")));
		assertThat(new LockLostException(both))
			.hasMessageContaining(
					"fencing tokens {******=" + both.fencingToken("a") + ", ******=" + both.fencingToken("b") + "}")
			.extracting(LockLostException::getFencingTokens)
			.isEqualTo(both.fencingTokens());
	}

	@Test
	void aFailingListenerStopsNeitherRenewalNorTheOtherListeners() throws Exception {
		List<LockLostEvent> lost = new CopyOnWriteArrayList<>();
		this.locks.leases().listen(new LockEventListener() {

			@Override
			public void leaseLost(LockLostEvent event) {
				throw new IllegalStateException("listener bug");
			}

			@Override
			public void leasesRenewed(int count) {
				throw new IllegalStateException("listener bug");
			}

		});
		this.locks.leases().listen(new LockEventListener() {

			@Override
			public void leaseLost(LockLostEvent event) {
				lost.add(event);
			}

		});
		LockHandle kept = tryAcquire("kept", LockOptions.ofTtl(Duration.ofMillis(1500)));
		tryAcquire("taken", LockOptions.ofTtl(Duration.ofMillis(1500)));
		this.redis.command("DEL", "lock:{taken}");

		await().atMost(Duration.ofSeconds(10)).until(() -> lost.size() == 1);
		await().atMost(Duration.ofSeconds(10))
			.until(() -> this.locks.heldLocks().stream().allMatch((lock) -> lock.renewals() >= 3));
		assertThat(kept.isHeld()).isTrue();
	}

	@Test
	void pendingRenewalTicksStayFewWhileShortLeasesChurnBesideALongOne() throws Exception {
		LockHandle longLease = tryAcquire("long", LockOptions.ofTtl(Duration.ofSeconds(30)));
		AtomicInteger mostPendingTicks = new AtomicInteger();
		AtomicInteger cycles = new AtomicInteger();
		long churnUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
		ExecutorService churners = Executors.newFixedThreadPool(4);
		try {
			List<Future<?>> workers = new ArrayList<>();
			for (int w = 0; w < 4; w++) {
				int worker = w;
				workers.add(churners.submit(() -> {
					for (int i = 0; System.nanoTime() - churnUntil < 0; i++) {
						Duration ttl = Duration.ofMillis(30 + 10 * (i % 8));
						LockHandle handle = tryAcquire("churn:" + worker + ":" + (i % 20), LockOptions.ofTtl(ttl));
						if (i % 10 == 0) {
							// Let some leases reach a renewal tick (or be lost trying) before they are released.
							await().atMost(Duration.ofSeconds(10))
								.pollInterval(Duration.ofMillis(1))
								.until(() -> renewalsOf(handle) > 0 || !handle.isHeld());
						}
						handle.close();
						mostPendingTicks.accumulateAndGet(renewer().pendingTicks(), Math::max);
						cycles.incrementAndGet();
					}
					return null;
				}));
			}
			for (Future<?> worker : workers) {
				worker.get(1, TimeUnit.MINUTES);
			}
		}
		finally {
			churners.shutdownNow();
		}

		assertThat(cycles.get()).as("acquire/release cycles").isGreaterThan(300);
		assertThat(mostPendingTicks.get()).as("most renewal ticks pending at once over %d cycles", cycles.get())
			.isLessThanOrEqualTo(2);
		assertThat(renewer().size()).isOne();
		assertThat(longLease.isHeld()).isTrue();
		assertThat(this.redis.command("EXISTS", "lock:{long}")).isEqualTo("1");
	}

	@Test
	void aBlockingLostLeaseListenerDelaysNoOtherRenewal() throws Exception {
		CountDownLatch listenerEntered = new CountDownLatch(1);
		CountDownLatch listenerReleased = new CountDownLatch(1);
		AtomicReference<String> listenerThread = new AtomicReference<>();
		this.locks.leases().listen(new LockEventListener() {

			@Override
			public void leaseLost(LockLostEvent event) {
				listenerThread.set(Thread.currentThread().getName());
				listenerEntered.countDown();
				try {
					listenerReleased.await();
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}

		});
		LockHandle healthy = tryAcquire("healthy", LockOptions.ofTtl(Duration.ofMillis(600)));
		tryAcquire("doomed", LockOptions.ofTtl(Duration.ofMillis(1500)));
		try {
			this.redis.command("DEL", "lock:{doomed}");
			assertThat(listenerEntered.await(10, TimeUnit.SECONDS)).as("lost-lease listener called").isTrue();
			long renewalsBefore = renewalsOf(healthy);

			// Five of the healthy lease's TTLs while the listener stays blocked. Redis is the judge: the
			// handle's own isHeld() counts the lease from when a renewal was sent, so on a loaded machine it
			// may dip while Redis still holds the lock.
			await().during(Duration.ofSeconds(3))
				.atMost(Duration.ofSeconds(6))
				.until(() -> "1".equals(this.redis.command("EXISTS", "lock:{healthy}")));
			assertThat(((DefaultLockHandle) healthy).isActive()).as("healthy lease neither lost nor released").isTrue();
			assertThat(renewalsOf(healthy)).as("renewals while the listener was blocked")
				.isGreaterThanOrEqualTo(renewalsBefore + 4);
			try (DefaultLockService rival = DefaultLockService.builder(this.backend).build()) {
				assertThat(rival.tryAcquire("healthy", LockOptions.ofTtl(Duration.ofSeconds(1)))).isEmpty();
			}
			assertThat(listenerReleased.getCount()).as("listener still blocked").isOne();
			assertThat(listenerThread.get()).doesNotStartWith("locksmith-renewal");
		}
		finally {
			listenerReleased.countDown();
		}
	}

	private List<LockHandle> acquireInParallel(int count, LockOptions options) {
		return IntStream.range(0, count)
			.parallel()
			.mapToObj((i) -> tryAcquire("held:" + i, options))
			.toList();
	}

	private LockHandle tryAcquire(String key, LockOptions options) {
		try {
			return this.locks.tryAcquire(key, options).orElseThrow();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	private static long renewalsOf(LockHandle handle) {
		return ((DefaultLockHandle) handle).toInfos().findFirst().orElseThrow().renewals();
	}

	private long totalRenewals() {
		return this.locks.heldLocks().stream().mapToLong(LockInfo::renewals).sum();
	}

	/** The watchdog that renews this service's leases. */
	private LeaseRenewer renewer() {
		return (LeaseRenewer) this.locks.leases().renewal();
	}

}
