package dev.locksmith.redis;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.locksmith.core.DefaultLockService;
import dev.locksmith.core.HandleOwnerTokens;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockLostEvent;
import dev.locksmith.core.LockLostException;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockStore.AcquireResult;
import dev.locksmith.core.LockStore.LeaseExtension;
import dev.locksmith.core.LockUnavailableException;
import dev.locksmith.core.LostLeaseRecorder;
import dev.locksmith.core.OwnerEntries;
import dev.locksmith.core.ReleaseNotifications;
import dev.locksmith.testing.CommandMonitor;
import dev.locksmith.testing.RedisServer;
import dev.locksmith.testing.RedisServerExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The Redis store's own guarantees against a real {@code redis-server}: round trips, hand-overs, pub/sub,
 * queues and outages. The lock contract itself runs in {@code locksmith-test}
 * ({@code RedisAclContractTests}), on each tested Redis version.
 */
class RedisLockServiceTests {

	private static final Duration LONG = Duration.ofSeconds(30);

	/** A claim lease as long as two of the five-minute re-checks some tests wait with, as the engine asks. */
	private static final Duration CLAIM_OF_SLOW_RECHECKS = Duration.ofMinutes(10);

	private static final RedisLockKeys KEYS = RedisFixture.KEYS;

	private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

	@RegisterExtension
	static final RedisServerExtension redisServer = new RedisServerExtension();

	private static RedisServer redis;

	@RegisterExtension
	final RedisFixture fixture = new RedisFixture(() -> redis.connectionFactory());

	private DefaultLockService locks;

	@BeforeAll
	static void findRedis() {
		redis = redisServer.server();
	}

	/** A started service, its subscriber connection open, so that tests counting commands see none of it. */
	@BeforeEach
	void createService() {
		this.locks = this.fixture.service();
		await().until(() -> redis.subscribers(KEYS.releaseChannel("")) > 0);
	}

	@Test
	void uncontendedAcquireAndReleaseTakeOneRoundTripEach() throws Exception {
		warmUpScripts();
		try (CommandMonitor monitor = redis.monitor()) {
			LockHandle handle = this.locks.tryAcquire("orders:1", LockOptions.ofTtl(LONG)).orElseThrow();
			assertThat(monitor.clientCommands()).containsExactly("EVALSHA");
			handle.close();
			assertThat(monitor.clientCommands()).containsExactly("EVALSHA", "EVALSHA");
		}
	}

	@Test
	void severalKeysAreAcquiredAndReleasedInOneRoundTripEach() throws Exception {
		warmUpScripts();
		try (CommandMonitor monitor = redis.monitor()) {
			LockHandle handle = this.locks.tryAcquireAll(List.of("a", "b", "c"), LockOptions.ofTtl(LONG)).orElseThrow();
			handle.close();
			assertThat(monitor.clientCommands()).containsExactly("EVALSHA", "EVALSHA");
		}
	}

	@Test
	void theStoredOwnerIsTheInstanceId128RandomBitsAndTheAskingThreadsStamp() throws Exception {
		DefaultLockService named = this.fixture.service(this.fixture.serviceBuilder().instanceId("checkout-7"));
		Set<String> owners = new HashSet<>();
		for (int i = 0; i < 100; i++) {
			try (LockHandle held = named.tryAcquire("job", LockOptions.ofTtl(LONG)).orElseThrow()) {
				owners.add(redis.command("GET", KEYS.lockKey("job")));
			}
		}
		assertThat(owners).hasSize(100).allMatch((owner) -> owner.matches("checkout-7:[0-9A-Za-z_.]{22}-[0-9a-z]+-[0-9a-z]+"));
	}

	@Test
	void aWaiterIsWokenByTheReleaseNotificationNotByPolling() throws Exception {
		DefaultLockService waiting = this.fixture.service(this.fixture.serviceBuilder(CLAIM_OF_SLOW_RECHECKS).recheckInterval(Duration.ofMinutes(5)));
		warmUpScripts();
		LockHandle holder = this.locks.tryAcquire("job", LockOptions.ofTtl(LONG)).orElseThrow();
		redis.resetStats();
		CompletableFuture<Optional<LockHandle>> waiter = CompletableFuture.supplyAsync(() -> {
			try {
				return waiting.tryAcquire("job", LockOptions.ofTtl(LONG).withWaitTime(Duration.ofMinutes(1)));
			}
			catch (InterruptedException ex) {
				throw new IllegalStateException(ex);
			}
		});
		await().until(() -> redis.callsOf("evalsha") == 2);
		holder.close();

		assertThat(waiter.get(30, TimeUnit.SECONDS)).isPresent();
		await().atMost(Duration.ofSeconds(10))
			.during(Duration.ofMillis(300))
			.alias("first try, try once subscribed, release, extend the handed-over claim to the lease")
			.until(() -> redis.callsOf("evalsha"), (calls) -> calls == 4);
	}

	@Test
	void aWaiterInTheReleasingProcessStartsOnTheReleaseAnswerWithoutANotification() throws Exception {
		DefaultLockService service = this.fixture.service(this.fixture.serviceBuilder(CLAIM_OF_SLOW_RECHECKS)
			.releaseNotifications(false)
			.recheckInterval(Duration.ofMinutes(5)));
		warmUpScripts();
		// a lease and a re-check far beyond the wait below: the waiter would otherwise look again when either ends
		LockHandle holder = service.tryAcquire("job", LockOptions.ofTtl(Duration.ofMinutes(5))).orElseThrow();
		redis.resetStats();
		CompletableFuture<Optional<LockHandle>> waiter = waitInBackground(service, "job", Duration.ofMinutes(1));
		await().alias("the waiter's first try").until(() -> redis.callsOf("evalsha") == 1);

		holder.close();

		LockHandle handed = waiter.get(20, TimeUnit.SECONDS).orElseThrow();
		assertThat(redis.command("GET", KEYS.lockKey("job"))).isEqualTo(OwnerEntries.of(HandleOwnerTokens.owner(handed)));
		assertThat(handed.fencingToken()).isGreaterThan(holder.fencingToken())
			.isEqualTo(Long.parseLong(redis.command("GET", KEYS.fenceKey("job"))));
		handed.close();
		assertThat(redis.command("EXISTS", KEYS.lockKey("job"))).isEqualTo("0");
	}

	@Test
	void aHandOverNotifiedAfterItsWaiterWasRefusedAgainIsStaleAndNeverMakesASecondHolder() throws Exception {
		DefaultLockService holders = this.fixture.service(this.fixture.serviceBuilder(Duration.ofMillis(300))
			.recheckInterval(Duration.ofMillis(150)));
		RedisReleaseNotifications delivered = RedisReleaseNotifications.started(this.fixture.connect(), KEYS);
		this.fixture.closeWith(delivered::destroy);
		HeldBackNotifications notifications = new HeldBackNotifications(delivered);
		CountedAttempts backend = new CountedAttempts(new RedisLockBackend(this.fixture.connect(), KEYS));
		this.fixture.closeWith(backend.delegate());
		DefaultLockService waiting = this.fixture.service(DefaultLockService.builder(NotifyingStore.of(backend, notifications))
			.recheckInterval(Duration.ofMinutes(5)));
		LockHandle first = holders.tryAcquire("job", LockOptions.ofTtl(LONG)).orElseThrow();
		AtomicReference<Optional<LockHandle>> granted = new AtomicReference<>();
		Thread waiter = waitOnThread(waiting, "job", Duration.ofMinutes(1), granted);
		await().until(() -> isParked(waiter));

		first.close();
		await().alias("the hand-over to the waiter, notified but held back").until(notifications::holdsBack);
		await().alias("its claim lapsed").until(() -> redis.command("EXISTS", KEYS.lockKey("job")).equals("0"));
		LockHandle second = holders.tryAcquire("job", LockOptions.ofTtl(LONG)).orElseThrow();
		int attempts = backend.attempts.get();
		notifications.tell("job", "nobody", Duration.ZERO, 0);
		await().alias("the waiter asked again, was refused, and waits")
			.until(() -> backend.attempts.get() > attempts && isParked(waiter));

		notifications.deliverHeldBack();

		await().during(Duration.ofMillis(500))
			.atMost(Duration.ofSeconds(10))
			.alias("the stale hand-over not taken")
			.until(() -> granted.get() == null && redis.command("GET", KEYS.lockKey("job"))
				.equals(OwnerEntries.of(HandleOwnerTokens.owner(second))));
		second.close();
		waiter.join(TimeUnit.SECONDS.toMillis(30));
		LockHandle handed = granted.get().orElseThrow();
		assertThat(handed.fencingToken()).isGreaterThan(second.fencingToken());
		assertThat(redis.command("GET", KEYS.lockKey("job"))).isEqualTo(OwnerEntries.of(HandleOwnerTokens.owner(handed)));
		handed.close();
	}

	/** A started thread that waits up to {@code wait} for the lock of {@code key} and sets what it got in {@code granted}. */
	private static Thread waitOnThread(DefaultLockService locks, String key, Duration wait,
			AtomicReference<Optional<LockHandle>> granted) {
		Thread waiter = new Thread(() -> {
			try {
				granted.set(locks.tryAcquire(key, LockOptions.ofTtl(LONG).withWaitTime(wait)));
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		});
		waiter.start();
		return waiter;
	}

	/** Whether {@code waiter} sleeps between attempts, not in one. */
	private static boolean isParked(Thread waiter) {
		return waiter.getState() == Thread.State.TIMED_WAITING && Arrays.stream(waiter.getStackTrace())
			.anyMatch((frame) -> frame.getClassName().endsWith("Waiters$Waiter") && frame.getMethodName().equals("await"));
	}

	@Test
	void aWaiterForOneKeyStartsOnTheHandOverWithTheFencingTokenItCarriesWithoutAskingAgain() throws Exception {
		LettuceConnectionFactory connections = this.fixture.connect();
		RedisReleaseNotifications notifications = RedisReleaseNotifications.started(connections, KEYS);
		this.fixture.closeWith(notifications::destroy);
		CountedAttempts backend = new CountedAttempts(new RedisLockBackend(connections, KEYS));
		this.fixture.closeWith(backend.delegate());
		DefaultLockService waiting = this.fixture.service(DefaultLockService.builder(NotifyingStore.of(backend, notifications))
			.recheckInterval(Duration.ofMinutes(5)));
		warmUpScripts();
		LockHandle holder = this.locks.tryAcquire("job", LockOptions.ofTtl(LONG)).orElseThrow();
		redis.resetStats();
		CompletableFuture<Optional<LockHandle>> waiter = waitInBackground(waiting, "job", Duration.ofMinutes(1));
		await().alias("first try, and try once subscribed, both answered").until(() -> redis.callsOf("evalsha") == 2);
		int attemptsBeforeRelease = backend.attempts.get();

		holder.close();

		LockHandle handed = waiter.get(30, TimeUnit.SECONDS).orElseThrow();
		assertThat(backend.attempts.get()).as("no acquisition after the hand-over").isEqualTo(attemptsBeforeRelease);
		assertThat(handed.fencingToken()).isGreaterThan(holder.fencingToken())
			.isEqualTo(Long.parseLong(redis.command("GET", KEYS.fenceKey("job"))));
		assertThat(redis.command("GET", KEYS.lockKey("job"))).isEqualTo(OwnerEntries.of(HandleOwnerTokens.owner(handed)));
		await().atMost(Duration.ofSeconds(10))
			.alias("the claim extended to the full lease in the background")
			.until(() -> Long.parseLong(redis.command("PTTL", KEYS.lockKey("job"))) > RedisLockBackend.DEFAULT_CLAIM_LEASE.toMillis());
		handed.close();
		assertThat(redis.command("EXISTS", KEYS.lockKey("job"))).isEqualTo("0");
	}

	@Test
	void aWaiterHandedALockWithLittleOfItsClaimLeftAsksForItsFullLeaseBeforeItsWorkStarts() throws Exception {
		LettuceConnectionFactory connections = this.fixture.connect();
		RedisReleaseNotifications notifications = RedisReleaseNotifications.started(connections, KEYS);
		this.fixture.closeWith(notifications::destroy);
		// The waiter's last refusal comes 1.7s after it was asked: the claim of a hand-over just after it has
		// 0.3s left as the waiter counts it (from its request), as after a wake-up delayed on a loaded machine.
		Duration claim = RedisLockBackend.DEFAULT_CLAIM_LEASE;
		SlowRefusals backend = new SlowRefusals(new RedisLockBackend(connections, KEYS), claim.minusMillis(300));
		this.fixture.closeWith(backend.delegate());
		this.fixture.closeWith(backend::letExtensionsThrough);
		DefaultLockService waiting = this.fixture.service(DefaultLockService.builder(NotifyingStore.of(backend, notifications))
			.storeTimeout(Duration.ofSeconds(10)));
		LostLeaseRecorder lost = LostLeaseRecorder.listeningTo(waiting);
		LockHandle holder = this.locks.tryAcquire("job", LockOptions.ofTtl(LONG)).orElseThrow();
		AtomicReference<Optional<LockHandle>> granted = new AtomicReference<>();
		Thread waiter = waitOnThread(waiting, "job", Duration.ofSeconds(20), granted);
		await().pollInterval(Duration.ofMillis(1))
			.atMost(Duration.ofSeconds(20))
			.alias("refused twice, the second time answered late, and waiting")
			.until(() -> backend.refusals.get() == 2 && isParked(waiter));

		holder.close();

		waiter.join(TimeUnit.SECONDS.toMillis(20));
		LockHandle handed = granted.get().orElseThrow();
		assertThat(handed.expiresAt()).as("its work starts on the full lease, not on what is left of the claim")
			.isAfter(Instant.now().plus(claim));
		await().during(Duration.ofMillis(500))
			.atMost(Duration.ofSeconds(2))
			.alias("held through work longer than the claim had left, though no extension was answered")
			.until(handed::isHeld);
		assertThat(handed.fencingToken()).isEqualTo(Long.parseLong(redis.command("GET", KEYS.fenceKey("job"))));
		assertThat(lost.events()).isEmpty();
		handed.close();
	}

	@Test
	void aLeaseThatRanOutWhileItsRenewalWasHeldUpIsCountedLostWhenItsWorkEnds() throws Exception {
		SlowRefusals backend = new SlowRefusals(new RedisLockBackend(this.fixture.connect(), KEYS), Duration.ZERO);
		this.fixture.closeWith(backend.delegate());
		this.fixture.closeWith(backend::letExtensionsThrough);
		DefaultLockService service = this.fixture.service(DefaultLockService.builder(backend)
			.storeTimeout(Duration.ofSeconds(10)));
		LostLeaseRecorder lost = LostLeaseRecorder.listeningTo(service);
		AtomicLong token = new AtomicLong();

		assertThatExceptionOfType(LockLostException.class)
			.isThrownBy(() -> service.callLocked("job", LockOptions.ofTtl(Duration.ofMillis(600)), () -> {
				token.set(Long.parseLong(redis.command("GET", KEYS.fenceKey("job"))));
				await().atMost(Duration.ofSeconds(10))
					.alias("the lease ran out in Redis while the renewal waited for its answer")
					.until(() -> redis.command("EXISTS", KEYS.lockKey("job")).equals("0"));
				return null;
			}));

		assertThat(backend.extensionsSent.get()).as("a renewal was under way").isPositive();
		// the listeners hear of it on the engine's event thread, maybe after the call returned
		await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(lost.events()).singleElement()
			.satisfies((event) -> {
				assertThat(event.key()).isEqualTo("job");
				assertThat(event.fencingToken()).isEqualTo(token.get());
			}));
	}

	@Test
	void aLockHandedOverIsRenewedBeforeItsClaimEndsWhileAnotherLeaseHasARenewalPending() throws Exception {
		DefaultLockService service = this.fixture.service();
		LockHandle other = service.tryAcquire("other", LockOptions.ofTtl(Duration.ofSeconds(9))).orElseThrow();
		LockHandle holder = service.tryAcquire("job", LockOptions.ofTtl(LONG)).orElseThrow();
		redis.resetStats();
		CompletableFuture<Optional<LockHandle>> waiter = waitInBackground(service, "job", Duration.ofSeconds(20));
		await().alias("first try, and try once subscribed, both answered").until(() -> redis.callsOf("evalsha") == 2);

		holder.close();

		LockHandle handed = waiter.get(20, TimeUnit.SECONDS).orElseThrow();
		await().atMost(Duration.ofSeconds(10))
			.alias("renewed to the full lease before the " + RedisLockBackend.DEFAULT_CLAIM_LEASE.toMillis()
					+ "ms claim ended, not at the other lease's renewal 3s after it was taken")
			.until(() -> Long.parseLong(redis.command("PTTL", KEYS.lockKey("job"))) > RedisLockBackend.DEFAULT_CLAIM_LEASE
				.toMillis());
		assertThat(handed.isHeld()).isTrue();
		handed.close();
		other.close();
	}

	@Test
	void allWaitersOfAProcessShareOneSubscriberConnection() throws Exception {
		DefaultLockService other = this.fixture.service();
		List<LockHandle> holders = new ArrayList<>();
		for (int key = 0; key < 4; key++) {
			holders.add(this.locks.tryAcquire("job:" + key, LockOptions.ofTtl(LONG)).orElseThrow());
		}
		redis.resetStats();
		List<Thread> waiters = new ArrayList<>();
		for (int i = 0; i < 12; i++) {
			String key = "job:" + (i % 4);
			Thread waiter = new Thread(() -> {
				try {
					other.acquire(key, LockOptions.ofTtl(LONG).withWaitTime(LONG)).close();
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			});
			waiter.start();
			waiters.add(waiter);
		}
		// A subscription completes in the background (a slow one after its waiter stopped waiting for it),
		// so wait for the state to settle: every thread asleep and one subscription per key.
		await().atMost(Duration.ofMinutes(1))
			.alias("one subscription of the waiting service per key, none per waiting thread, none of the holder")
			.until(() -> waiters.stream().allMatch((waiter) -> waiter.getState() == Thread.State.TIMED_WAITING)
					&& IntStream.range(0, 4)
						.mapToObj((key) -> KEYS.releaseChannel("job:" + key))
						.allMatch((channel) -> redis.command("PUBSUB", "NUMSUB", channel).equals(channel + "\n1")));
		holders.forEach(LockHandle::close);
		for (Thread waiter : waiters) {
			waiter.join(TimeUnit.SECONDS.toMillis(30));
			assertThat(waiter.isAlive()).as("every waiter was handed its lock in turn").isFalse();
		}
	}

	@Test
	void theSubscriberConnectionIsOpenBeforeTheFirstWaiterNeedsIt() {
		DefaultLockService started = this.fixture.service();
		String channel = KEYS.releaseChannel("");

		await().atMost(Duration.ofSeconds(30))
			.alias("the started service subscribed, with no waiter, to the channel of the blank key that no lock has")
			.until(() -> redis.subscribers(channel) == 2);
		assertThat(started.heldLocks()).isEmpty();
	}

	@Test
	void aKeyIsUnsubscribedWhenNoWaiterHasWaitedForItForAWhile() throws Exception {
		DefaultLockService waiting = this.fixture.service();
		String channel = KEYS.releaseChannel("job");
		ExecutorService waiterThread = Executors.newSingleThreadExecutor();
		try (LockHandle holder = this.locks.tryAcquire("job", LockOptions.ofTtl(LONG)).orElseThrow()) {
			Future<Optional<LockHandle>> waiter = waiterThread
				.submit(() -> waiting.tryAcquire("job", LockOptions.ofTtl(LONG).withWaitTime(Duration.ofSeconds(2))));
			await().atMost(Duration.ofSeconds(30))
				.alias("subscribed while the waiter waits (and " + RedisReleaseNotifications.LINGER + " after)")
				.until(() -> redis.command("PUBSUB", "NUMSUB", channel).equals(channel + "\n1"));
			assertThat(waiter.get(30, TimeUnit.SECONDS)).isEmpty();
			await().atMost(Duration.ofSeconds(30))
				.alias("unsubscribed once no waiter was left for " + RedisReleaseNotifications.LINGER)
				.until(() -> redis.command("PUBSUB", "NUMSUB", channel).equals(channel + "\n0"));
		}
		finally {
			waiterThread.shutdownNow();
		}
	}

	@Test
	void notificationsForABusyListenerWaitInABoundedQueueAndTheRestAreDropped() throws Exception {
		CountDownLatch listenerBusy = new CountDownLatch(1);
		RedisReleaseNotifications notifications = notificationsWatching("job", (key, owner, claimLease, fencingToken) -> {
			try {
				listenerBusy.await();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		});
		String channel = KEYS.releaseChannel("job");
		try {
			await().atMost(Duration.ofSeconds(30))
				.until(() -> redis.command("PUBSUB", "NUMSUB", channel).equals(channel + "\n1"));
			redis.command("EVAL", "for i = 1, tonumber(ARGV[1]) do redis.call('PUBLISH', KEYS[1], '1000:0:owner-' .. i) end",
					"1", channel, String.valueOf(RedisReleaseNotifications.DISPATCH_QUEUE + 500));
			await().atMost(Duration.ofSeconds(30))
				.during(Duration.ofMillis(500))
				.alias("a full queue that grows no further")
				.until(notifications::pendingNotifications, (pending) -> pending == RedisReleaseNotifications.DISPATCH_QUEUE);
		}
		finally {
			listenerBusy.countDown();
		}
	}

	@Test
	void pollingWaitersGetTheLockWithoutNotifications() throws Exception {
		LockHandle holder = this.locks.tryAcquire("job", LockOptions.ofTtl(LONG)).orElseThrow();
		DefaultLockService polling = this.fixture.service(this.fixture.serviceBuilder().releaseNotifications(false)
			.recheckInterval(Duration.ofMillis(50)));
		redis.resetStats();
		CompletableFuture<Optional<LockHandle>> waiter = CompletableFuture.supplyAsync(() -> {
			try {
				return polling.tryAcquire("job", LockOptions.ofTtl(LONG).withWaitTime(LONG));
			}
			catch (InterruptedException ex) {
				throw new IllegalStateException(ex);
			}
		});
		await().until(() -> redis.callsOf("evalsha") >= 3);
		assertThat(waiter).as("still waiting after polling three times").isNotDone();
		holder.close();

		assertThat(waiter.get(30, TimeUnit.SECONDS)).isPresent();
	}

	@Test
	void fencingTokensKeepIncreasingAfterTheServerRestartsEmpty() throws Exception {
		long before;
		try (LockHandle handle = this.locks.tryAcquire("account:7", LockOptions.ofTtl(LONG)).orElseThrow()) {
			before = handle.fencingToken();
		}
		redis.command("FLUSHALL");
		redis.restart();

		LockHandle after = await().atMost(Duration.ofSeconds(10))
			.ignoreException(LockUnavailableException.class)
			.until(() -> this.locks.tryAcquire("account:7", LockOptions.ofTtl(LONG)), Optional::isPresent)
			.orElseThrow();
		assertThat(after.fencingToken()).isGreaterThan(before);
	}

	@Test
	void scriptFlushBetweenCallsDoesNotFail() throws Exception {
		LockHandle first = this.locks.tryAcquire("job", LockOptions.ofTtl(LONG)).orElseThrow();
		redis.command("SCRIPT", "FLUSH");
		assertThat(first.extend(LONG)).isTrue();
		redis.command("SCRIPT", "FLUSH");
		first.close();
		redis.command("SCRIPT", "FLUSH");

		assertThat(this.locks.tryAcquire("job", LockOptions.ofTtl(LONG))).isPresent();
	}

	@Test
	void aCrashedRedisGivesLockUnavailableAndLockingRecoversWhenItReturns() throws Exception {
		this.locks.tryAcquire("warm-up", LockOptions.ofTtl(LONG)).orElseThrow();
		RedisReleaseNotifications notifications = notificationsWatching("job");
		redis.kill();
		try {
			assertThatExceptionOfType(LockUnavailableException.class)
				.isThrownBy(() -> this.locks.tryAcquire("job", LockOptions.ofTtl(LONG)))
				.withMessageContaining("'******'");
		}
		finally {
			redis.restart();
		}
		await().atMost(Duration.ofSeconds(30))
			.ignoreException(LockUnavailableException.class)
			.until(() -> this.locks.tryAcquire("job", LockOptions.ofTtl(LONG)).isPresent());
		await().atMost(Duration.ofSeconds(30))
			.untilAsserted(() -> assertThat(redis.command("PUBSUB", "NUMSUB", KEYS.releaseChannel("job")))
				.as("the watched key subscribed again").isEqualTo(KEYS.releaseChannel("job") + "\n1"));
	}

	@Test
	void aRedisThatStopsAnsweringGivesLockUnavailableInsteadOfAHang() throws Exception {
		this.locks.tryAcquire("warm-up", LockOptions.ofTtl(LONG)).orElseThrow();
		redis.pause();
		try {
			long started = System.nanoTime();
			assertThatExceptionOfType(LockUnavailableException.class)
				.isThrownBy(() -> this.locks.tryAcquire("job", LockOptions.ofTtl(LONG)))
				.withMessageContaining("within " + RedisFixture.REDIS_TIMEOUT.toMillis() + "ms");
			assertThat(Duration.ofNanos(System.nanoTime() - started)).as("bounded by the timeout, not the client's")
				.isLessThan(Duration.ofSeconds(10));
		}
		finally {
			redis.resume();
		}
	}

	@Test
	void aLeaseLostWhileRedisWasFrozenIsReleasedWhenClosed() throws Exception {
		// A drift allowance of most of the lease makes this process give the lease up long before Redis does.
		DefaultLockService impatient = this.fixture.service(this.fixture.serviceBuilder().driftAllowance(Duration.ofMillis(9500)));
		List<LockLostEvent> lost = LostLeaseRecorder.listeningTo(impatient).events();
		LockHandle handle = await().ignoreException(LockUnavailableException.class)
			.until(() -> impatient.tryAcquire("job", LockOptions.ofTtl(Duration.ofSeconds(10))), Optional::isPresent)
			.orElseThrow();
		redis.pause();
		try {
			await().atMost(Duration.ofSeconds(10)).until(() -> !lost.isEmpty());
		}
		finally {
			redis.resume();
		}
		assertThat(redis.command("EXISTS", KEYS.lockKey("job"))).as("still in Redis after the local give-up")
			.isEqualTo("1");

		handle.close();

		assertThat(redis.command("EXISTS", KEYS.lockKey("job"))).isEqualTo("0");
	}

	@Test
	void isHeldIsNeverTrueOnceRedisLetTheLeaseExpire() throws Exception {
		StringRedisTemplate template = new StringRedisTemplate(this.fixture.connect());
		for (int round = 0; round < 100; round++) {
			LockOptions shortLease = LockOptions.ofTtl(Duration.ofNanos(20_500_000)).withRenew(false);
			LockHandle handle = this.locks.tryAcquire("short", shortLease).orElseThrow();
			await().atMost(Duration.ofSeconds(10))
				.pollDelay(Duration.ZERO)
				.pollInterval(Duration.ofMillis(1))
				.until(() -> !Boolean.TRUE.equals(template.hasKey(KEYS.lockKey("short"))));
			assertThat(handle.isHeld()).as("held after Redis expired the lock, round %d", round).isFalse();
		}
	}

	@Test
	void aWaiterForSeveralKeysIsPassedOverOnAFreedKeyWhileAnotherOfItsKeysIsBusyAndKeepsItsPlace() throws Exception {
		RedisLockBackend backend = new RedisLockBackend(this.fixture.connect(), KEYS);
		this.fixture.closeWith(backend);
		assertThat(attempt(backend, List.of("a"), "first:holder", Duration.ZERO).acquired()).isTrue();
		assertThat(attempt(backend, List.of("b"), "busy:holder", Duration.ZERO).acquired()).isTrue();
		assertThat(attempt(backend, List.of("a", "b"), "both:waiter", LONG).acquired()).isFalse();
		assertThat(attempt(backend, List.of("a"), "next:waiter", LONG).acquired()).isFalse();
		assertThat(attempt(backend, List.of("a"), "later:waiter", LONG).acquired()).isFalse();

		backend.release(List.of("a"), TestOwners.owner("first:holder")).get();
		assertThat(redis.command("GET", KEYS.lockKey("a"))).as("handed to the first waiter").isEqualTo("both:waiter");
		assertThat(attempt(backend, List.of("a", "b"), "both:waiter", LONG).busyKey()).isEqualTo("b");
		assertThat(attempt(backend, List.of("a"), "next:waiter", LONG).acquired()).as("'a' was passed on").isTrue();

		backend.release(List.of("a"), TestOwners.owner("next:waiter")).get();
		assertThat(redis.command("GET", KEYS.lockKey("a"))).as("the parked waiter is passed over")
			.isEqualTo("later:waiter");
		assertThat(attempt(backend, List.of("a"), "later:waiter", LONG).acquired()).isTrue();
		backend.release(List.of("a"), TestOwners.owner("later:waiter")).get();
		assertThat(redis.command("EXISTS", KEYS.lockKey("a"))).as("left free, not handed to the parked waiter")
			.isEqualTo("0");
		assertThat(redis.command("LRANGE", KEYS.queueKey("a"), "0", "-1")).as("which keeps its place")
			.isEqualTo("both:waiter");

		backend.release(List.of("b"), TestOwners.owner("busy:holder")).get();
		assertThat(attempt(backend, List.of("a", "b"), "both:waiter", LONG).acquired())
			.as("handed 'b', and 'a' is free").isTrue();
		assertThat(redis.command("EXISTS", KEYS.queueKey("a"), KEYS.queueKey("b"), KEYS.deadlinesKey("a"),
				KEYS.deadlinesKey("b"))).as("queues empty once nobody waits").isEqualTo("0");
	}

	@Test
	void aWaiterThatStopsWaitingWhileFirstOnAFreeKeyHandsThatKeyToTheNextWaiter() throws Exception {
		RedisLockBackend backend = new RedisLockBackend(this.fixture.connect(), KEYS);
		this.fixture.closeWith(backend);
		assertThat(backend.tryAcquire(TestOwners.request(List.of("a"), "short:holder", Duration.ofMillis(200), Duration.ZERO)).get()
			.acquired()).isTrue();
		assertThat(attempt(backend, List.of("b"), "busy:holder", Duration.ZERO).acquired()).isTrue();
		assertThat(attempt(backend, List.of("a", "b"), "both:waiter", LONG).busyKey()).isEqualTo("a");
		assertThat(attempt(backend, List.of("a"), "next:waiter", LONG).acquired()).isFalse();
		await().until(() -> redis.command("EXISTS", KEYS.lockKey("a")).equals("0"));

		assertThat(attempt(backend, List.of("a", "b"), "both:waiter", Duration.ZERO).busyKey())
			.as("refused for 'b' with no wait left").isEqualTo("b");

		assertThat(redis.command("GET", KEYS.lockKey("a"))).as("'a' handed on at once, not left to a re-check")
			.isEqualTo("next:waiter");
	}

	@Test
	void aReleaseWithAMinimumHoldIsNotLengthenedByARenewalSentBeforeIt() throws Exception {
		DelayedRenewals backend = new DelayedRenewals(new RedisLockBackend(this.fixture.connect(), KEYS));
		this.fixture.closeWith(backend.delegate());
		DefaultLockService service = this.fixture.service(DefaultLockService.builder(backend).storeTimeout(Duration.ofSeconds(10)));
		Duration ttl = Duration.ofSeconds(3);
		LockHandle handle = service.tryAcquire("job", LockOptions.ofTtl(ttl).withHoldAtLeast(Duration.ofSeconds(2)))
			.orElseThrow();
		backend.renewalSent.await(10, TimeUnit.SECONDS);

		handle.close();
		backend.letRenewalsThrough.countDown();
		await().until(() -> backend.renewalsAnswered.get() > 0);

		assertThat(Long.parseLong(redis.command("PTTL", KEYS.lockKey("job"))))
			.as("the late renewal of the full %s did not lengthen the minimum hold", ttl)
			.isBetween(1L, 2001L);
	}

	@Test
	void aWaiterThatGivesUpLeavesTheQueue() throws Exception {
		LockHandle held = this.locks.tryAcquire("job", LockOptions.ofTtl(LONG)).orElseThrow();
		CompletableFuture<Optional<LockHandle>> patient = waitInBackground(this.fixture.service(), "job", Duration.ofMinutes(1));
		await().until(() -> redis.command("LLEN", KEYS.queueKey("job")).equals("1"));

		CompletableFuture<Optional<LockHandle>> impatient = waitInBackground(this.fixture.service(), "job", Duration.ofSeconds(3));
		await().atMost(Duration.ofSeconds(10))
			.alias("the impatient waiter queued behind the patient one")
			.until(() -> redis.command("LLEN", KEYS.queueKey("job")).equals("2")
					&& redis.command("HLEN", KEYS.deadlinesKey("job")).equals("2"));
		assertThat(impatient.get(30, TimeUnit.SECONDS)).isEmpty();

		await().atMost(Duration.ofSeconds(10)).until(() -> redis.command("LLEN", KEYS.queueKey("job")).equals("1"));
		assertThat(redis.command("HLEN", KEYS.deadlinesKey("job"))).as("only the patient waiter is left")
			.isEqualTo("1");
		held.close();
		assertThat(patient.get(30, TimeUnit.SECONDS)).isPresent();
	}

	@Test
	void aQueuedWaiterWhoseDeadlinePassedIsSkipped() throws Exception {
		DefaultLockService holder = this.fixture.service(this.fixture.serviceBuilder(Duration.ofMinutes(1)));
		LockHandle held = holder.tryAcquire("job", LockOptions.ofTtl(LONG)).orElseThrow();
		redis.command("RPUSH", KEYS.queueKey("job"), "crashed-instance:ghost");
		redis.command("HSET", KEYS.deadlinesKey("job"), "crashed-instance:ghost", "1");
		DefaultLockService live = this.fixture.service(this.fixture.serviceBuilder(Duration.ofMinutes(1)));
		CompletableFuture<Optional<LockHandle>> next = waitInBackground(live, "job", Duration.ofMinutes(2));
		await().until(() -> redis.command("LLEN", KEYS.queueKey("job")).equals("2"));

		held.close();

		assertThat(next.get(30, TimeUnit.SECONDS)).as("handed over at once, not after the ghost's 1-minute claim")
			.isPresent();
	}

	@Test
	void aFrozenRedisHoldsUpNoWatchOrUnwatchBeyondItsBound() {
		RedisReleaseNotifications notifications = notificationsWatching("warm");
		redis.pause();
		try {
			long started = System.nanoTime();
			assertThat(notifications.watch("cold", Duration.ofMillis(200))).isTrue();
			notifications.unwatch("warm");
			notifications.unwatch("cold");
			assertThat(Duration.ofNanos(System.nanoTime() - started))
				.as("bounded by the wait given, not by the client's 60s command timeout")
				.isLessThan(Duration.ofSeconds(10));
		}
		finally {
			redis.resume();
		}
	}

	@Test
	void lockingRecoversWhenTheConnectionFactoryIsReset() throws Exception {
		LettuceConnectionFactory connections = this.fixture.connect();
		RedisLockBackend backend = new RedisLockBackend(connections, KEYS);
		this.fixture.closeWith(backend);
		DefaultLockService service = this.fixture.service(DefaultLockService.builder(backend).storeTimeout(RedisFixture.REDIS_TIMEOUT));
		service.tryAcquire("before", LockOptions.ofTtl(LONG)).orElseThrow().close();

		connections.resetConnection();

		await().atMost(Duration.ofSeconds(10))
			.ignoreException(LockUnavailableException.class)
			.until(() -> service.tryAcquire("after", LockOptions.ofTtl(LONG)).isPresent());
	}

	@Test
	void twoThousandContendedCyclesStartAlmostNoThread() throws Exception {
		DefaultLockService other = this.fixture.service();
		ExecutorService contenders = Executors.newFixedThreadPool(2);
		try {
			contenders.invokeAll(List.of(() -> null, () -> null));
			long startedBefore = THREADS.getTotalStartedThreadCount();
			List<Future<Object>> cycles = contenders.invokeAll(List.of(() -> cycle(this.locks, 1000),
					() -> cycle(other, 1000)));
			for (Future<Object> done : cycles) {
				done.get();
			}

			assertThat(THREADS.getTotalStartedThreadCount() - startedBefore)
				.as("threads started by the library during 2,000 acquire/release cycles on one key")
				.isLessThanOrEqualTo(20);
		}
		finally {
			contenders.shutdownNow();
		}
	}

	@Test
	void callsTimedOutAgainstAFrozenRedisLeaveNoThreadBehind() throws Exception {
		DefaultLockService impatient = this.fixture.service(this.fixture.serviceBuilder().storeTimeout(Duration.ofMillis(20)));
		await().ignoreExceptions().until(() -> {
			impatient.tryAcquire("warm-up", LockOptions.ofTtl(LONG)).orElseThrow().close();
			return true;
		});
		int threadsBefore = THREADS.getThreadCount();
		redis.resetStats();
		redis.pause();
		try {
			for (int i = 0; i < 200; i++) {
				String key = "frozen:" + i;
				// A lease far longer than the wait below: only a release, never expiry, clears a late grant.
				assertThatExceptionOfType(LockUnavailableException.class)
					.isThrownBy(() -> impatient.tryAcquire(key, LockOptions.ofTtl(Duration.ofMinutes(10))));
			}
			assertThat(THREADS.getThreadCount() - threadsBefore).as("live threads added by 200 timed-out calls")
				.isLessThanOrEqualTo(3);
		}
		finally {
			redis.resume();
		}
		await().atMost(Duration.ofSeconds(30))
			.alias("the 200 buffered acquisitions and at least one release of each ran")
			.until(() -> redis.callsOf("evalsha") >= 400);
		await().atMost(Duration.ofSeconds(30))
			.untilAsserted(() -> assertThat(redis.command("KEYS", "lock:{frozen:*")).as("late grants released")
				.isEmpty());
	}

	private static AcquireResult attempt(RedisLockBackend backend, List<String> keys, String ownerToken,
			Duration queueFor) throws Exception {
		return backend.tryAcquire(TestOwners.request(keys, ownerToken, LONG, queueFor)).get();
	}

	private static CompletableFuture<Optional<LockHandle>> waitInBackground(DefaultLockService locks, String key,
			Duration wait) {
		return CompletableFuture.supplyAsync(() -> {
			try {
				return locks.tryAcquire(key, LockOptions.ofTtl(LONG).withWaitTime(wait));
			}
			catch (InterruptedException ex) {
				throw new IllegalStateException(ex);
			}
		});
	}

	/** Release notifications, subscribed to the releases of {@code key}. */
	private RedisReleaseNotifications notificationsWatching(String key) {
		return notificationsWatching(key, (released, ownerToken, claimLease, fencingToken) -> {
		});
	}

	private RedisReleaseNotifications notificationsWatching(String key, ReleaseNotifications.Listener listener) {
		RedisReleaseNotifications notifications = RedisReleaseNotifications.started(this.fixture.connect(), KEYS);
		this.fixture.closeWith(notifications::destroy);
		notifications.listen(listener);
		notifications.watch(key, Duration.ofSeconds(10));
		return notifications;
	}

	private static Object cycle(DefaultLockService locks, int times) throws InterruptedException {
		for (int i = 0; i < times; i++) {
			locks.acquire("hot", LockOptions.ofTtl(LONG).withWaitTime(LONG)).close();
		}
		return null;
	}

	@ParameterizedTest
	@NullAndEmptySource
	@ValueSource(strings = { " ", "\t" })
	void aBlankKeyIsRejectedBeforeAnythingIsSent(String key) {
		redis.resetStats();

		assertThatExceptionOfType(IllegalArgumentException.class)
			.isThrownBy(() -> this.locks.tryAcquire(key, LockOptions.ofTtl(LONG)))
			.withMessageStartingWith("key must not be null or blank");
		assertThat(redis.commandCalls()).isEmpty();
	}

	@ParameterizedTest
	@ValueSource(strings = { "PT0S", "PT-1S", "PT0.0001S" })
	void aTtlBelowOneMillisecondIsRejected(Duration ttl) {
		assertThatExceptionOfType(IllegalArgumentException.class).isThrownBy(() -> LockOptions.ofTtl(ttl))
			.withMessageStartingWith("ttl must be at least 1ms");
	}

	@Test
	void aNegativeWaitTimeIsRejected() {
		assertThatExceptionOfType(IllegalArgumentException.class)
			.isThrownBy(() -> LockOptions.ofTtl(LONG).withWaitTime(Duration.ofMillis(-1)))
			.withMessageStartingWith("waitTime must not be negative");
	}

	@Test
	void aMinimumHoldLongerThanTheTtlOrNegativeIsRejected() {
		assertThatExceptionOfType(IllegalArgumentException.class)
			.isThrownBy(() -> LockOptions.ofTtl(Duration.ofSeconds(10)).withHoldAtLeast(Duration.ofSeconds(11)))
			.withMessage("holdAtLeast must not exceed ttl, was PT11S with a ttl of PT10S");
		assertThatExceptionOfType(IllegalArgumentException.class)
			.isThrownBy(() -> LockOptions.ofTtl(LONG).withHoldAtLeast(Duration.ofMillis(-1)))
			.withMessageStartingWith("holdAtLeast must not be negative");
	}

	@Test
	void anEarlyReleaseWithAMinimumHoldLeavesTheLockToExpireAtTheMinimum() throws Exception {
		LockHandle handle = this.locks.tryAcquire("job", LockOptions.ofTtl(LONG).withHoldAtLeast(Duration.ofSeconds(5)))
			.orElseThrow();
		handle.close();

		assertThat(Long.parseLong(redis.command("PTTL", "lock:{job}"))).isBetween(1L, 5001L);
	}

	/** A backend whose renewals wait until let through, as a slow renewal thread's would. */
	private static final class DelayedRenewals extends ForwardingLockBackend {

		private final CountDownLatch renewalSent = new CountDownLatch(1);

		private final CountDownLatch letRenewalsThrough = new CountDownLatch(1);

		private final AtomicInteger renewalsAnswered = new AtomicInteger();

		DelayedRenewals(RedisLockBackend delegate) {
			super(delegate);
		}

		@Override
		public List<CompletableFuture<Boolean>> extend(List<LeaseExtension> leases) {
			if (leases.stream().anyMatch(LeaseExtension::last)) {
				return super.extend(leases);
			}
			this.renewalSent.countDown();
			return leases.stream().map((lease) -> CompletableFuture.supplyAsync(() -> {
				awaitUninterruptibly(this.letRenewalsThrough);
				boolean extended = super.extend(List.of(lease)).get(0).join();
				this.renewalsAnswered.incrementAndGet();
				return extended;
			})).toList();
		}

		private static void awaitUninterruptibly(CountDownLatch latch) {
			try {
				latch.await(30, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}

	}

	/**
	 * A backend whose refusals are answered {@code refusalDelay} late, as to a waiter whose thread ran late
	 * on a loaded machine, and whose lease extensions are answered only when let through, as a starved
	 * renewal thread's would be.
	 */
	private static final class SlowRefusals extends ForwardingLockBackend {

		private final Duration refusalDelay;

		private final AtomicInteger refusals = new AtomicInteger();

		private final AtomicInteger extensionsSent = new AtomicInteger();

		private final CompletableFuture<Void> extensionsLetThrough = new CompletableFuture<>();

		SlowRefusals(RedisLockBackend delegate, Duration refusalDelay) {
			super(delegate);
			this.refusalDelay = refusalDelay;
		}

		@Override
		public CompletableFuture<AcquireResult> tryAcquire(AcquireRequest request) {
			return super.tryAcquire(request).thenCompose((result) -> {
				if (result.acquired()) {
					return CompletableFuture.completedFuture(result);
				}
				return CompletableFuture.supplyAsync(() -> {
					this.refusals.incrementAndGet();
					return result;
				}, CompletableFuture.delayedExecutor(this.refusalDelay.toNanos(), TimeUnit.NANOSECONDS));
			});
		}

		@Override
		public List<CompletableFuture<Boolean>> extend(List<LeaseExtension> leases) {
			this.extensionsSent.incrementAndGet();
			return leases.stream()
				.map((lease) -> this.extensionsLetThrough.thenCompose((through) -> super.extend(List.of(lease)).get(0)))
				.toList();
		}

		void letExtensionsThrough() {
			this.extensionsLetThrough.complete(null);
		}

	}

	/** A backend that counts acquisition attempts. */
	/** Release notifications whose hand-overs are held back until told, as a slow subscriber would deliver them. */
	private static final class HeldBackNotifications implements ReleaseNotifications {

		private final ReleaseNotifications delegate;

		private final List<Runnable> heldBack = new CopyOnWriteArrayList<>();

		private volatile boolean holding = true;

		private volatile ReleaseNotifications.@Nullable Listener listener;

		HeldBackNotifications(ReleaseNotifications delegate) {
			this.delegate = delegate;
			delegate.listen(this::received);
		}

		@Override
		public void listen(ReleaseNotifications.Listener listener) {
			this.listener = listener;
		}

		@Override
		public boolean watch(String key, Duration maxWait) {
			return this.delegate.watch(key, maxWait);
		}

		@Override
		public void unwatch(String key) {
			this.delegate.unwatch(key);
		}

		boolean holdsBack() {
			return !this.heldBack.isEmpty();
		}

		void tell(String key, String ownerToken, Duration claimLease, long fencingToken) {
			ReleaseNotifications.Listener target = this.listener;
			if (target != null) {
				target.handedOver(key, ownerToken, claimLease, fencingToken);
			}
		}

		void deliverHeldBack() {
			this.holding = false;
			this.heldBack.forEach(Runnable::run);
		}

		private void received(String key, String ownerToken, Duration claimLease, long fencingToken) {
			Runnable delivery = () -> tell(key, ownerToken, claimLease, fencingToken);
			if (this.holding) {
				this.heldBack.add(delivery);
			}
			else {
				delivery.run();
			}
		}

	}

	private static final class CountedAttempts extends ForwardingLockBackend {

		private final AtomicInteger attempts = new AtomicInteger();

		CountedAttempts(RedisLockBackend delegate) {
			super(delegate);
		}

		@Override
		public CompletableFuture<AcquireResult> tryAcquire(AcquireRequest request) {
			this.attempts.incrementAndGet();
			return super.tryAcquire(request);
		}

	}

	private void warmUpScripts() throws Exception {
		try (LockHandle handle = this.locks.tryAcquire("warm-up", LockOptions.ofTtl(LONG)).orElseThrow()) {
			handle.extend(LONG);
		}
	}

}
