package dev.locksmith.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.locksmith.core.DefaultLockService;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockOptions;
import dev.locksmith.testing.RedisServer;
import dev.locksmith.testing.RedisServerExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The cohort hand-over on a real {@code redis-server}: a release hands the lock to a waiter of its own
 * process queued behind another process's first waiter at most the bound of times in a row, each with a
 * fencing token of its own. Two engines with their own connections and instance ids ({@code local} and
 * {@code remote}) stand for two processes.
 */
class CohortHandOverTests {

	private static final RedisLockKeys KEYS = RedisFixture.KEYS;

	private static final LockOptions WAIT = LockOptions.ofTtl(Duration.ofSeconds(30)).withWaitTime(Duration.ofMinutes(1));

	@RegisterExtension
	static final RedisServerExtension redisServer = new RedisServerExtension();

	private static RedisServer redis;

	@RegisterExtension
	final RedisFixture fixture = new RedisFixture(() -> redis.connectionFactory());

	private final ExecutorService waiters = Executors.newCachedThreadPool();

	/** Each section in the order it ran: who held the lock, and its fencing token. */
	private final List<Section> sections = Collections.synchronizedList(new ArrayList<>());

	@BeforeAll
	static void findRedis() {
		redis = redisServer.server();
	}

	@AfterEach
	void stopWaiters() throws InterruptedException {
		this.waiters.shutdownNow();
		assertThat(this.waiters.awaitTermination(1, TimeUnit.MINUTES)).isTrue();
	}

	@ParameterizedTest(name = "bound {0}")
	@ValueSource(ints = { 0, 1, 3 })
	void aLocalWaiterIsPassedTheLockAtMostTheBoundInARowWhileARemoteOneWaits(int bound) throws Exception {
		DefaultLockService local = service("local", Duration.ofSeconds(2), bound);
		DefaultLockService remote = service("remote", Duration.ofSeconds(2), bound);
		LockHandle held = local.tryAcquire("hot", WAIT).orElseThrow();
		List<CompletableFuture<Void>> all = new ArrayList<>();
		all.add(queue(remote, "remote", 1));
		for (int i = 0; i < bound + 2; i++) {
			all.add(queue(local, "local", i + 2));
		}

		held.close();
		CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).get(1, TimeUnit.MINUTES);

		List<String> holders = this.sections.stream().map(Section::holder).toList();
		List<String> expected = new ArrayList<>(Collections.nCopies(bound, "local"));
		expected.add("remote");
		expected.addAll(Collections.nCopies(2, "local"));
		assertThat(holders).as("%d local passes ahead of the remote waiter, then the remote one, then the rest", bound)
			.isEqualTo(expected);
		assertThat(this.sections.stream().mapToLong(Section::fencingToken))
			.as("every pass is a grant with a fencing token of its own")
			.isSorted()
			.doesNotHaveDuplicates()
			.allMatch((token) -> token > held.fencingToken());
	}

	@Test
	void aLocalPassThatIsNeverTakenMovesOnToTheRemoteWaiterAfterTheClaimLease() throws Exception {
		Duration claimLease = Duration.ofSeconds(2);
		DefaultLockService local = service("local", claimLease, 4);
		DefaultLockService remote = service("remote", claimLease, 4);
		LockHandle held = local.tryAcquire("hot", WAIT).orElseThrow();
		CompletableFuture<Void> remoteWaiter = queue(remote, "remote", 1);
		String ghost = "local:" + "0".repeat(32);
		redis.command("RPUSH", KEYS.queueKey("hot"), ghost);
		redis.command("HSET", KEYS.deadlinesKey("hot"), ghost, Long.toString(System.currentTimeMillis() + 600_000));

		held.close();

		assertThat(redis.command("GET", KEYS.lockKey("hot")))
			.as("handed to the waiter of the releasing process that will never take it")
			.isEqualTo(ghost);
		long ghostToken = Long.parseLong(redis.command("GET", KEYS.fenceKey("hot")));
		remoteWaiter.get(1, TimeUnit.MINUTES);
		assertThat(this.sections).extracting(Section::holder).containsExactly("remote");
		assertThat(this.sections.get(0).fencingToken()).as("after the lapsed pass's token").isGreaterThan(ghostToken);
	}

	/**
	 * Starts a waiter for {@code hot} on {@code engine} that records its section and releases at once, and
	 * returns once it stands in the queue at {@code place}.
	 */
	private CompletableFuture<Void> queue(DefaultLockService engine, String holder, int place) {
		CompletableFuture<Void> done = CompletableFuture.runAsync(() -> {
			try (LockHandle handle = engine.tryAcquire("hot", WAIT).orElseThrow()) {
				this.sections.add(new Section(holder, handle.fencingToken()));
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException(ex);
			}
		}, this.waiters);
		await().atMost(Duration.ofMinutes(1))
			.alias("waiter " + place + " queued")
			.until(() -> Integer.parseInt(redis.command("LLEN", KEYS.queueKey("hot"))) == place);
		return done;
	}

	private DefaultLockService service(String instanceId, Duration claimLease, int cohortPasses) {
		return this.fixture.service(this.fixture.serviceBuilder(claimLease, cohortPasses)
			.instanceId(instanceId)
			.recheckInterval(claimLease.dividedBy(2)));
	}

	/** One critical section: the engine whose thread held the lock, and the lock's fencing token. */
	private record Section(String holder, long fencingToken) {
	}

}
