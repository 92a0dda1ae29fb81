package dev.locksmith.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.locksmith.annotation.LockMode;
import dev.locksmith.core.DefaultLockService;
import dev.locksmith.core.LockStore;
import dev.locksmith.core.LockStore.AcquireResult;
import dev.locksmith.core.LockStore.LeaseExtension;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockUnavailableException;
import dev.locksmith.core.StoreBusyException;
import dev.locksmith.redis.ReliabilityReport.Outcome;
import dev.locksmith.testing.RedisCluster;
import dev.locksmith.testing.RedisServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Locks on a Redis Cluster while a hash slot moves to another master step by step, the way
 * {@code redis-cli --cluster reshard} moves it: the slot migrating on its node and importing on the
 * other, its keys moved one by one, then handed over. While some of a lock's keys have moved, Redis
 * refuses its scripts with {@code TRYAGAIN}; Locksmith sends them again within the Redis timeout, counted
 * from each call's start.
 */
@Tag("slow")
class RedisClusterMigrationTests {

	private static final RedisLockKeys KEYS = new RedisLockKeys("lock:");

	/** Locksmith's default {@code redis-timeout}: what a call has, from its start, to get through a migrating slot. */
	private static final Duration REDIS_TIMEOUT = Duration.ofSeconds(2);

	/** The engine's longest pause between two sends of a refused call. */
	private static final Duration LONGEST_PAUSE = Duration.ofMillis(200);

	/**
	 * A round trip to Redis and back through the event loop, with room for a busy machine: a send answered,
	 * or a resend sent, this much later than it could have been, was starved.
	 */
	private static final Duration ROUND_TRIP = Duration.ofMillis(100);

	private static final Duration CLAIM_LEASE = Duration.ofSeconds(1);

	/** How long the fenced workload's slot migrates at least: half the Redis timeout. */
	private static final Duration WINDOW = REDIS_TIMEOUT.dividedBy(2);

	private static final Duration LONG = Duration.ofSeconds(20);

	private static final Pattern TRYAGAIN = Pattern.compile("errorstat_TRYAGAIN:count=(\\d+)");

	/** How many times the fenced workload's slot moves: {@code -Dlocksmith.stress.scale=N} for a longer run. */
	private static final int WINDOWS = Math.max(1, Integer.getInteger("locksmith.stress.scale", 1));

	private static final Map<Integer, String> report = new TreeMap<>();

	private static RedisCluster cluster;

	private final List<AutoCloseable> resources = new ArrayList<>();

	private final List<Thread> threads = new ArrayList<>();

	private StringRedisTemplate redis;

	@BeforeAll
	static void startCluster() {
		cluster = RedisCluster.start();
	}

	@AfterAll
	static void stopCluster() throws Exception {
		String redis = ReliabilityReport.redisVersion(cluster.nodes().get(0).command("INFO", "server"));
		cluster.close();
		if (!report.isEmpty()) {
			ReliabilityReport.writeSection("cluster-migration", "## A Redis Cluster slot migrating\n\n"
					+ "Written by `RedisClusterMigrationTests` on a three-master cluster (Redis " + redis + "), with"
					+ " locksmith.redis-timeout 2 s and a claim lease of 1 s. Four threads of two lock services do the"
					+ " fenced workload above (2 s leases, waits up to 20 s) while the slot of one of the three accounts"
					+ " moves the way `redis-cli --cluster reshard` moves it, held open for 1 s and until the slot"
					+ " refused 10 scripts; `-Dlocksmith.stress.scale=N` moves it N times.\n\n"
					+ String.join("\n", report.values()));
		}
	}

	@BeforeEach
	void connect() {
		cluster.nodes().forEach((node) -> node.command("FLUSHALL"));
		LettuceConnectionFactory connections = cluster.connectionFactory();
		this.resources.add(connections::destroy);
		this.redis = new StringRedisTemplate(connections);
	}

	@AfterEach
	void close() throws Exception {
		this.threads.forEach(Thread::interrupt);
		for (Thread thread : this.threads) {
			thread.join(TimeUnit.SECONDS.toMillis(30));
		}
		for (AutoCloseable resource : this.resources) {
			resource.close();
		}
	}

	/**
	 * The stores guide's bound: a call fails only when its slot refused it until less than a few round trips
	 * before its redis-timeout (counted from its start) ran out, or when the machine did not run Redis or this
	 * JVM for a round trip. The test's slot stays open about half the redis-timeout, so on a machine that runs
	 * both in time no call fails; each failed call is listed with why, what it sent, and what stalled.
	 */
	@Test
	void fencedWorkGoesThroughAMigratingSlotFailingOnlyCallsItsWindowOrAStarvedMachineOutlasted() throws Exception {
		Stalls stalls = new Stalls();
		this.resources.add(stalls);
		LockOptions options = LockOptions.ofTtl(Duration.ofSeconds(2)).withWaitTime(LONG);
		List<SentCalls> sent = new ArrayList<>();
		List<DefaultLockService> services = List.of(newRecordedService(sent), newRecordedService(sent));
		List<FailedCall> failed = new CopyOnWriteArrayList<>();
		FencedWorkload workload = new FencedWorkload(services, options,
				(operation, key, startedAt, failure) -> failed.add(failedCall(sent, operation, key, startedAt, failure)));
		this.resources.add(0, workload);
		Checker checker = workload.checker();
		String account = Checker.KEYS.get(0);
		await().atMost(Duration.ofMinutes(1)).until(() -> checker.seen(account) > 0 && accepted(checker) >= 20);
		Map<String, Long> before = checker.snapshot();
		long refusedBefore = refusals();
		long longestWindow = 0;
		Duration recovery = Duration.ZERO;
		List<long[]> windows = new ArrayList<>();
		for (int window = 0; window < WINDOWS; window++) {
			long opened = System.nanoTime();
			Migration migration = Migration.begin(account, KEYS.fenceKey(account));
			await().pollDelay(WINDOW).atMost(Duration.ofSeconds(10))
				.until(() -> refusals() >= migration.refusedBefore() + 10);
			long finishing = System.nanoTime();
			migration.finish();
			long finished = System.nanoTime();
			windows.add(new long[] { opened, finishing, finished });
			longestWindow = Math.max(longestWindow, finished - opened);
			long acceptedThen = accepted(checker);
			await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(5))
				.until(() -> accepted(checker) > acceptedThen);
			recovery = Duration.ofNanos(Math.max(recovery.toNanos(), System.nanoTime() - finished));
			await().atMost(Duration.ofMinutes(1)).until(() -> accepted(checker) >= acceptedThen + 20);
		}
		Outcome outcome = Outcome.between("a busy account's slot migrating to another master, its fencing counter moved"
				+ " first (every script of the slot refused with TRYAGAIN), then the slot handed over; " + WINDOWS
				+ " time(s)", false, before, checker.snapshot(), recovery);
		report.put(1, "| fault | critical sections | overlaps (allowed by the model?) | stale reads and writes rejected"
				+ " | lost updates | lock calls that failed closed | recovery |\n|---|---|---|---|---|---|---|\n"
				+ ReliabilityReport.row(outcome) + "\n\nThe migrating slot refused " + (refusals() - refusedBefore)
				+ " scripts with TRYAGAIN; its longest window lasted "
				+ TimeUnit.NANOSECONDS.toMillis(longestWindow) + " ms."
				+ (failed.isEmpty() ? "" : " Calls that failed, each within the stores guide's bound or not: "
						+ failed.stream().map((call) -> call.allowedBecause(windows, stalls))
							.map((because) -> (because != null) ? because : "NOT ALLOWED")
							.collect(Collectors.joining("; ")) + ".")
				+ "\n");

		String why = failed.stream().map((call) -> call.describe(windows, stalls)).collect(Collectors.joining("\n"));
		assertThat(failed).as("lock calls that failed while a slot merely migrated, outside the stores guide's bound:%n%s",
				why).allMatch((call) -> call.allowedBecause(windows, stalls) != null);
		assertThat(checker.snapshot().getOrDefault("unexpected", 0L)).as("unexpected failures:%n%s", why).isZero();
		assertThat(outcome.overlaps()).isZero();
		assertThat(outcome.lostUpdates()).as("no lost update").isZero();
	}

	@Test
	void aLockReleasedWhileItsSlotMovesGoesToItsWaitersInTurn() throws Exception {
		String key = "moving";
		LockHandle held = newService().tryAcquire(key, LockOptions.ofTtl(LONG)).orElseThrow();
		DefaultLockService waiting = newService();
		ConcurrentLinkedQueue<String> outcomes = new ConcurrentLinkedQueue<>();
		for (int i = 0; i < 3; i++) {
			start(() -> {
				try (LockHandle handle = waiting.acquire(key, LockOptions.ofTtl(LONG).withWaitTime(LONG))) {
					outcomes.add("acquired");
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
				catch (RuntimeException ex) {
					outcomes.add(ex.toString());
				}
			});
		}
		await().atMost(Duration.ofSeconds(10)).until(() -> queued(key) == 3);

		Migration migration = Migration.begin(key, KEYS.lockKey(key));
		CompletableFuture<Void> release = CompletableFuture.runAsync(held::close);
		await().atMost(Duration.ofSeconds(10)).until(() -> refusals() > migration.refusedBefore());
		migration.finish();
		long finished = System.nanoTime();
		release.get(30, TimeUnit.SECONDS);
		await().atMost(LONG).until(() -> outcomes.size() == 3);

		Duration served = Duration.ofNanos(System.nanoTime() - finished);
		report.put(2, "- A lock released while its slot moves (its lock key moved first, its queue of 3 waiters not"
				+ " yet): the release was refused with TRYAGAIN " + (refusals() - migration.refusedBefore())
				+ " time(s) in all and sent again; the 3 waiters got the lock in turn, the last " + served.toMillis()
				+ " ms after the slot moved; outcomes: " + outcomes + ".\n");
		assertThat(outcomes).as("every waiter got the lock, in turn").containsOnly("acquired");
		assertThat(served).isLessThan(Duration.ofSeconds(5));
	}

	@Test
	void waitersThatLeftWhileTheirSlotMigratedCostTheNextWaiterAtMostOneClaimLease() throws Exception {
		String key = "ghosts";
		LockHandle held = newService().tryAcquire(key, LockOptions.ofTtl(LONG)).orElseThrow();
		DefaultLockService leaving = newService();
		List<Thread> ghosts = new ArrayList<>();
		for (int i = 0; i < 4; i++) {
			ghosts.add(start(() -> {
				try {
					leaving.tryAcquire(key, LockOptions.ofTtl(LONG).withWaitTime(LONG));
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}));
		}
		await().atMost(Duration.ofSeconds(10)).until(() -> queued(key) == 4);
		DefaultLockService nextWaiter = newService();
		CompletableFuture<Optional<LockHandle>> next = CompletableFuture.supplyAsync(() -> acquire(nextWaiter, key));
		await().atMost(Duration.ofSeconds(10)).until(() -> queued(key) == 5);

		Migration migration = Migration.begin(key, KEYS.fenceKey(key));
		ghosts.forEach(Thread::interrupt);
		await().atMost(Duration.ofSeconds(10)).until(() -> ghosts.stream().noneMatch(Thread::isAlive)
				&& refusals() >= migration.refusedBefore() + ghosts.size());
		migration.finish();
		long released = System.nanoTime();
		held.close();
		LockHandle handle = next.get(30, TimeUnit.SECONDS).orElseThrow();
		Duration delay = Duration.ofNanos(System.nanoTime() - released);
		handle.close();

		report.put(3, "- 4 waiters interrupted while their slot migrated (their leave refused with TRYAGAIN), then the"
				+ " holder released: the next live waiter got the lock " + delay.toMillis() + " ms after the release"
				+ " (claim lease " + CLAIM_LEASE.toMillis() + " ms).\n");
		assertThat(delay).as("at most one claim lease for all the waiters that left")
			.isLessThan(CLAIM_LEASE.plusMillis(500));
	}

	@Test
	void anExclusiveReleaseInAMigratingSlotIsRefusedBeforeItRunsAndHandsTheLockOnOnceTheSlotMoved() throws Exception {
		String key = "whole";
		RedisLockBackend backend = held(key, "holder", "waiter");

		Migration migration = Migration.begin(key, null);
		// An exclusive lock has no share holders' key, which the release names: Redis refuses it for the whole
		// window, before it runs. The share tests below run scripts in a migrating slot.
		assertThat(backend.release(List.of(key), TestOwners.owner("holder"))).failsWithin(Duration.ofSeconds(10))
			.withThrowableThat()
			.withCauseInstanceOf(StoreBusyException.class)
			.withMessageContaining("TRYAGAIN");
		assertThat(this.redis.opsForValue().get(KEYS.lockKey(key))).as("a refused release changed nothing")
			.isEqualTo("holder");
		migration.finish();

		assertThat(backend.release(List.of(key), TestOwners.owner("holder")).get(10, TimeUnit.SECONDS)).isOne();
		assertThat(this.redis.opsForValue().get(KEYS.lockKey(key))).as("handed to the waiter").isEqualTo("waiter");
		assertThat(queued(key)).isZero();
	}

	@Test
	void readLocksReleasedInAMigratingSlotThatStillHasAllTheLocksKeysHandItToTheQueuedWriterWhole() throws Exception {
		String key = "read-mostly";
		DefaultLockService readers = newService();
		LockOptions read = LockOptions.ofTtl(LONG).withMode(LockMode.READ);
		List<LockHandle> reads = List.of(readers.tryAcquire(key, read).orElseThrow(),
				readers.tryAcquire(key, read).orElseThrow());
		DefaultLockService writers = newService();
		CompletableFuture<Optional<LockHandle>> writer = CompletableFuture.supplyAsync(() -> acquire(writers, key));
		await().atMost(Duration.ofSeconds(10)).until(() -> queued(key) == 1);
		List<String> logged = storeCallsLog();
		RedisServer source = cluster.nodeServing(KEYS.lockKey(key));

		whileMigrating(key, allKeys(key), () -> {
			reads.forEach(LockHandle::close);
			return assertThat(source.command("GET", KEYS.lockKey(key)))
				.as("handed to the writer on the node the slot migrates from: the releases ran there, whole")
				.isNotEmpty()
				.doesNotStartWith("@");
		});
		// The writer took the hand-over, or its claim may have lapsed and it asked again once the slot moved.
		LockHandle written = writer.get(10, TimeUnit.SECONDS).orElseThrow();
		assertThat(logged).as("no release failed or was sent again").isEmpty();
		assertThat(written.isHeld()).isTrue();
		written.close();
		assertThat(this.redis.hasKey(KEYS.lockKey(key))).isFalse();
		assertThat(queued(key)).isZero();
	}

	@Test
	void aPermitWaiterGrantedFromTheQueueItEmptiesInAMigratingSlotIsNotCutInHalf() throws Exception {
		String key = "permit-granted";
		RedisLockBackend backend = newBackend();
		assertThat(acquire(backend, key, "@permits=2/holder", LONG).acquired()).isTrue();
		assertThat(acquire(backend, key, "@permits=2/crashed", Duration.ofMillis(300)).acquired()).isTrue();
		assertThat(acquire(backend, key, "@permits=2/waiter", LONG).acquired()).isFalse();
		await().atMost(Duration.ofSeconds(10)).until(() -> leaseEnded(key, "@permits=2/crashed"));

		// The crashed holder's permit is free: the waiter, asking again, takes it from the queue, which empties.
		assertThat(whileMigrating(key, allKeys(key), () -> acquire(backend, key, "@permits=2/waiter", LONG).acquired()))
			.isTrue();
		assertThat(holders(key))
			.containsExactlyInAnyOrder("@permits=2/holder", "@permits=2/waiter");
		assertThat(queued(key)).isZero();
	}

	@Test
	void theOnlyPermitWaiterGivingUpInAMigratingSlotIsNotCutInHalf() throws Exception {
		String key = "permit-left";
		RedisLockBackend backend = held(key, "@permits=2/holder");
		assertThat(acquire(backend, key, "@permits=2/second", LONG).acquired()).isTrue();
		assertThat(acquire(backend, key, "@permits=2/waiter", LONG).acquired()).isFalse();

		assertThat(whileMigrating(key, allKeys(key),
				() -> backend.release(List.of(key), TestOwners.owner("@permits=2/waiter")).get(10, TimeUnit.SECONDS)))
			.isZero();
		assertThat(this.redis.opsForValue().get(KEYS.lockKey(key))).isEqualTo("@permits=2");
		assertThat(holders(key)).containsExactlyInAnyOrder("@permits=2/holder", "@permits=2/second");
		assertThat(queued(key)).isZero();
	}

	@Test
	void theOnlyReadersLastLeaseInAMigratingSlotIsNotCutInHalf() throws Exception {
		String key = "last-lease";
		RedisLockBackend backend = held(key, "@read/only");

		LeaseExtension last = new LeaseExtension(key, TestOwners.owner("@read/only"), LONG, true);
		assertThat(whileMigrating(key, List.of(KEYS.lockKey(key), KEYS.holdersKey(key)),
				() -> backend.extend(List.of(last)).get(0).get(10, TimeUnit.SECONDS)))
			.isTrue();
		assertThat(holders(key)).containsExactly("@read/only+released");
		assertThat(backend.extend(List.of(last)).get(0).get(10, TimeUnit.SECONDS)).as("no later extension lengthens it")
			.isFalse();
	}

	@Test
	void aForcedReleaseOfFullPermitsInAMigratingSlotHandsThemToTheWaiterWhole() throws Exception {
		String key = "permits-forced";
		RedisLockBackend backend = held(key, "@permits=2/holder");
		assertThat(acquire(backend, key, "@permits=2/second", LONG).acquired()).isTrue();
		assertThat(acquire(backend, key, "@permits=2/waiter", LONG).acquired()).isFalse();
		LettuceConnectionFactory connections = cluster.connectionFactory();
		this.resources.add(0, connections::destroy);
		RedisLockAdministration administration = new RedisLockAdministration(connections, KEYS, CLAIM_LEASE, false);

		assertThat(whileMigrating(key, allKeys(key), () -> administration.forceRelease(key).join())).isTrue();
		assertThat(holders(key)).containsExactly("@permits=2/waiter");
		assertThat(queued(key)).isZero();
	}

	@Test
	void aReleaseRefusedPastTheRedisTimeoutIsSentAgainInTheBackgroundUntilItSucceeds() throws Exception {
		String key = "retried";
		LockHandle held = newService(Duration.ofMillis(100)).tryAcquire(key, LockOptions.ofTtl(LONG)).orElseThrow();
		List<String> logged = storeCallsLog();

		Migration migration = Migration.begin(key, KEYS.fenceKey(key));
		held.close();
		assertThat(this.redis.hasKey(KEYS.lockKey(key))).as("still locked while the slot migrates").isTrue();
		migration.finish();

		await().atMost(Duration.ofSeconds(5)).until(() -> logged.size() == 2);
		assertThat(this.redis.hasKey(KEYS.lockKey(key))).as("released long before its lease ends").isFalse();
		assertThat(logged.get(0)).startsWith("WARNING Could not release").contains("retrying until its lease ends");
		assertThat(logged.get(1)).startsWith("INFO Releasing locks again").endsWith("(failed meanwhile: '******')");
	}

	private static Optional<LockHandle> acquire(DefaultLockService service, String key) {
		try {
			return service.tryAcquire(key, LockOptions.ofTtl(LONG).withWaitTime(LONG));
		}
		catch (InterruptedException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private DefaultLockService newService() {
		return newService(REDIS_TIMEOUT);
	}

	private DefaultLockService newService(Duration redisTimeout) {
		LettuceConnectionFactory connections = connectionFactory();
		return newService(connections, newBackend(connections), redisTimeout);
	}

	/** An engine on {@code backend} that re-checks twice a claim lease, as the engine asks of a store's claim lease. */
	private DefaultLockService newService(LettuceConnectionFactory connections, LockStore backend,
			Duration redisTimeout) {
		RedisReleaseNotifications notifications = new RedisReleaseNotifications(connections, KEYS);
		DefaultLockService service = DefaultLockService.builder(NotifyingStore.of(backend, notifications))
			.storeTimeout(redisTimeout)
			.recheckInterval(CLAIM_LEASE.dividedBy(2))
			.build();
		this.resources.add(0, notifications::destroy);
		this.resources.add(0, service);
		return service;
	}

	/** An engine whose backend records what it sends in {@code sent}. */
	private DefaultLockService newRecordedService(List<SentCalls> sent) {
		LettuceConnectionFactory connections = connectionFactory();
		SentCalls backend = new SentCalls(newBackend(connections));
		sent.add(backend);
		return newService(connections, backend, REDIS_TIMEOUT);
	}

	private RedisLockBackend newBackend(LettuceConnectionFactory connections) {
		RedisLockBackend backend = new RedisLockBackend(connections, KEYS, CLAIM_LEASE);
		this.resources.add(0, backend);
		return backend;
	}

	private LettuceConnectionFactory connectionFactory() {
		LettuceConnectionFactory connections = cluster.connectionFactory();
		this.resources.add(0, connections::destroy);
		return connections;
	}

	private RedisLockBackend newBackend() {
		return newBackend(connectionFactory());
	}

	/** A call of this thread that failed now, with what the owner token of its last lock call sent. */
	private static FailedCall failedCall(List<SentCalls> sent, String operation, String key, long startedAt,
			RuntimeException failure) {
		long failedAt = System.nanoTime();
		String ownerToken = sent.stream()
			.map((calls) -> calls.lastAcquireBy(Thread.currentThread()))
			.filter(Objects::nonNull)
			.findFirst()
			.orElse(null);
		if (ownerToken == null) {
			return new FailedCall(operation, key, startedAt, failedAt, failure, "no send recorded", 0);
		}
		String sends = sent.stream()
			.map((calls) -> calls.describe(ownerToken, startedAt))
			.filter((described) -> !described.startsWith("0 "))
			.collect(Collectors.joining("; "));
		long longestSendDelay = sent.stream()
			.mapToLong((calls) -> calls.longestDelayNanos(ownerToken, failedAt, LONGEST_PAUSE.toNanos()))
			.max()
			.orElse(0);
		return new FailedCall(operation, key, startedAt, failedAt, failure, sends, longestSendDelay);
	}

	/** A backend through which {@code holder} took {@code key}'s lock and each of {@code waiters} queued for it. */
	private RedisLockBackend held(String key, String holder, String... waiters) throws Exception {
		RedisLockBackend backend = newBackend();
		assertThat(acquire(backend, key, holder, LONG).acquired()).isTrue();
		for (String waiter : waiters) {
			assertThat(acquire(backend, key, waiter, LONG).acquired()).isFalse();
		}
		return backend;
	}

	private static AcquireResult acquire(RedisLockBackend backend, String key, String ownerToken, Duration ttl)
			throws Exception {
		return backend.tryAcquire(TestOwners.request(List.of(key), ownerToken, ttl, LONG)).get(10, TimeUnit.SECONDS);
	}

	/**
	 * Runs {@code script} while the slot of {@code key}'s lock migrates and every key it names is still on the
	 * node the slot migrates from, so that Redis runs its scripts there instead of refusing them (the backend
	 * would throw a refusal); then moves the slot.
	 */
	private static <T> T whileMigrating(String key, List<String> named, Callable<T> script) throws Exception {
		RedisServer source = cluster.nodeServing(KEYS.lockKey(key));
		Migration migration = Migration.begin(key, null);
		try {
			assertThat(source.command(Stream.concat(Stream.of("EXISTS"), named.stream()).toArray(String[]::new)))
				.as("every key the script names, on the node the slot migrates from")
				.isEqualTo(Integer.toString(named.size()));
			return script.call();
		}
		finally {
			migration.finish();
		}
	}

	private static List<String> allKeys(String key) {
		return List.of(KEYS.lockKey(key), KEYS.fenceKey(key), KEYS.queueKey(key), KEYS.deadlinesKey(key),
				KEYS.holdersKey(key));
	}

	/** Whether the share of {@code ownerToken} has ended by the clock of the node that serves {@code key}. */
	private boolean leaseEnded(String key, String ownerToken) {
		String[] time = cluster.nodeServing(KEYS.lockKey(key)).command("TIME").split("\n");
		long nowMillis = Long.parseLong(time[0]) * 1000 + Long.parseLong(time[1]) / 1000;
		Double leaseEnd = this.redis.opsForZSet().score(KEYS.holdersKey(key), ownerToken);
		return leaseEnd != null && leaseEnd <= nowMillis;
	}

	/** What the engine's store calls log from now on, as level and message. */
	private List<String> storeCallsLog() {
		Logger storeCalls = Logger.getLogger("dev.locksmith.core.StoreCalls");
		List<String> logged = new CopyOnWriteArrayList<>();
		Handler handler = new Handler() {

			@Override
			public void publish(LogRecord record) {
				logged.add(record.getLevel() + " " + record.getMessage());
			}

			@Override
			public void flush() {
			}

			@Override
			public void close() {
			}

		};
		storeCalls.addHandler(handler);
		this.resources.add(() -> storeCalls.removeHandler(handler));
		return logged;
	}

	private Thread start(Runnable work) {
		Thread thread = new Thread(work, "migration-test-" + this.threads.size());
		this.threads.add(thread);
		thread.start();
		return thread;
	}

	private @Nullable Set<String> holders(String key) {
		return this.redis.opsForZSet().range(KEYS.holdersKey(key), 0, -1);
	}

	private long queued(String key) {
		Long size = this.redis.opsForList().size(KEYS.queueKey(key));
		return (size != null) ? size : 0;
	}

	/**
	 * A call of the fenced workload that failed: which, on which key, when it started and failed, why, what
	 * its owner token sent, and the longest its sends waited beyond a round trip or the longest pause.
	 */
	private record FailedCall(String operation, String key, long startedAt, long failedAt, RuntimeException failure,
			String sends, long longestSendDelay) {

		/**
		 * Why the call may fail within the bound the stores guide states, or null when it may not: its slot
		 * refused it until less than three round trips before its redis-timeout ran out, or the machine did
		 * not run Redis or this JVM for a round trip (a send not answered, a resend late, a thread stalled).
		 */
		@Nullable String allowedBecause(List<long[]> windows, Stalls stalls) {
			boolean refusedOrTimedOut = this.failure instanceof StoreBusyException
					|| (this.failure instanceof LockUnavailableException
							&& this.failure.getCause() instanceof TimeoutException);
			if (!refusedOrTimedOut) {
				return null;
			}
			long deadline = this.startedAt + REDIS_TIMEOUT.toNanos();
			long closedAt = windows.stream()
				.filter((times) -> times[0] < this.failedAt && times[2] > this.startedAt)
				.mapToLong((times) -> times[2])
				.max()
				.orElse(Long.MIN_VALUE);
			if (closedAt > deadline - 3 * ROUND_TRIP.toNanos()) {
				return "its slot refused it until " + millis(deadline - closedAt) + "ms before its redis-timeout ran out";
			}
			long starved = Math.max(Math.max(this.longestSendDelay, stalls.longestBetween(this.startedAt, this.failedAt)),
					this.failedAt - deadline);
			if (starved >= ROUND_TRIP.toNanos()) {
				return "the machine starved it for " + millis(starved) + "ms";
			}
			return null;
		}

		/** The call, why it failed, and the migration windows as {opened, finishing, finished} around it. */
		String describe(List<long[]> windows, Stalls stalls) {
			String window = windows.stream()
				.filter((times) -> times[0] < this.failedAt && times[2] > this.startedAt - TimeUnit.SECONDS.toNanos(5))
				.map((times) -> "window opened " + millis(times[0] - this.startedAt) + "ms, finishing "
						+ millis(times[1] - this.startedAt) + "ms, finished " + millis(times[2] - this.startedAt) + "ms")
				.collect(Collectors.joining(", "));
			String allowed = allowedBecause(windows, stalls);
			return "- " + ((allowed != null) ? "allowed, " + allowed : "NOT ALLOWED") + ": " + this.operation + " of "
					+ this.key + " failed " + millis(this.failedAt - this.startedAt) + "ms after it started ("
					+ (window.isEmpty() ? "no window near it" : window) + "; longest stall of this JVM "
					+ millis(stalls.longestBetween(this.startedAt, this.failedAt)) + "ms, longest send delay "
					+ millis(this.longestSendDelay) + "ms): " + this.failure + " [" + SentCalls.reason(this.failure)
					+ "]; its owner token: " + this.sends;
		}

		private static long millis(long nanos) {
			return TimeUnit.NANOSECONDS.toMillis(nanos);
		}

	}

	/** The slot of a lock moving to another master, with how many refusals of TRYAGAIN came before. */
	private record Migration(int slot, RedisServer target, long refusedBefore) {

		/** Opens the migration of the slot of {@code key}'s lock and moves {@code firstMoved}, if any, there. */
		static Migration begin(String key, @Nullable String firstMoved) {
			RedisServer serving = cluster.nodeServing(KEYS.lockKey(key));
			RedisServer target = cluster.nodes().stream().filter((node) -> node != serving).findFirst().orElseThrow();
			int slot = cluster.slotOf(KEYS.lockKey(key));
			cluster.beginMigration(slot, target);
			Migration migration = new Migration(slot, target, refusals());
			if (firstMoved != null) {
				cluster.moveKeys(target, firstMoved);
			}
			return migration;
		}

		/** Moves the other keys of the slot and gives it to the target. */
		void finish() {
			cluster.finishMigration(this.slot, this.target);
		}

	}

	/** How many commands the masters refused with {@code TRYAGAIN} so far. */
	private static long refusals() {
		long refused = 0;
		for (RedisServer node : cluster.nodes()) {
			Matcher matcher = TRYAGAIN.matcher(node.command("INFO", "errorstats"));
			refused += matcher.find() ? Long.parseLong(matcher.group(1)) : 0;
		}
		return refused;
	}

	private static long accepted(Checker checker) {
		return checker.snapshot().getOrDefault("accepted", 0L);
	}

}
