package dev.locksmith.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.locksmith.core.DefaultLockService;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockOptions;
import dev.locksmith.testing.RedisServer;
import dev.locksmith.testing.WorkerJvm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Waiters of one key in several processes are served in arrival order, but for the cohort passes to a
 * waiter of the releasing process, and a dead one costs one claim lease.
 */
@Tag("slow")
class FairHandOverProcessTests {

	private static final RedisLockKeys KEYS = new RedisLockKeys("lock:");

	private static final LockOptions HOLD = LockOptions.ofTtl(Duration.ofSeconds(30));

	private final List<Process> workers = new ArrayList<>();

	private final List<AutoCloseable> resources = new ArrayList<>();

	private RedisServer redis;

	@BeforeEach
	void startRedis() {
		this.redis = RedisServer.start();
	}

	@AfterEach
	void stopAll() throws Exception {
		this.workers.forEach(Process::destroyForcibly);
		for (AutoCloseable resource : this.resources) {
			resource.close();
		}
		this.redis.close();
	}

	@Test
	void waitersFromThreeProcessesAreGrantedInArrivalOrder() throws Exception {
		LockHandle holder = service(Duration.ofSeconds(1)).tryAcquire("report", HOLD).orElseThrow();
		for (String name : List.of("first", "second", "third")) {
			startWaiter("report", name);
		}

		holder.close();

		for (Process worker : this.workers) {
			assertThat(worker.waitFor(2, TimeUnit.MINUTES)).isTrue();
			assertThat(worker.exitValue()).isZero();
		}
		assertThat(this.redis.command("LRANGE", QueuedWaiterWorker.GRANTS, "0", "-1"))
			.isEqualTo("first\nsecond\nthird");
	}

	@Test
	void aWaiterOfTheReleasingProcessIsPassedTheLockAheadOfOtherProcessesWithinTheCohortBound() throws Exception {
		DefaultLockService holding = service(Duration.ofSeconds(1));
		LockHandle holder = holding.tryAcquire("report", HOLD).orElseThrow();
		for (String name : List.of("first", "second")) {
			startWaiter("report", name);
		}
		CompletableFuture<Void> local = CompletableFuture.runAsync(() -> {
			try (LockHandle handle = acquireWithin(holding, "report", Duration.ofMinutes(2)).orElseThrow()) {
				this.redis.command("RPUSH", QueuedWaiterWorker.GRANTS, "local");
			}
		});
		await().atMost(Duration.ofMinutes(1)).until(() -> queueLength("report") == 3);

		holder.close();

		local.get(2, TimeUnit.MINUTES);
		for (Process worker : this.workers) {
			assertThat(worker.waitFor(2, TimeUnit.MINUTES)).isTrue();
			assertThat(worker.exitValue()).isZero();
		}
		assertThat(this.redis.command("LRANGE", QueuedWaiterWorker.GRANTS, "0", "-1"))
			.as("the holder's own waiter first, one pass within the default bound, then arrival order")
			.isEqualTo("local\nfirst\nsecond");
	}

	@Test
	void aQueuedWaiterThatWasKilledDelaysTheNextOneByAtMostTheClaimLease() throws Exception {
		LockHandle holder = service(Duration.ofSeconds(1)).tryAcquire("report", HOLD).orElseThrow();
		Process doomed = startWaiter("report", "killed");
		DefaultLockService patient = service(Duration.ofMinutes(10), "patient");
		CompletableFuture<Optional<LockHandle>> next = new CompletableFuture<>();
		Thread waiting = new Thread(() -> next.complete(acquireWithin(patient, "report", Duration.ofMinutes(1))));
		waiting.start();
		await().atMost(Duration.ofSeconds(30))
			.alias("both waiters queued and subscribed")
			.until(() -> queueLength("report") == 2 && this.redis
				.command("PUBSUB", "NUMSUB", KEYS.releaseChannel("report"))
				.endsWith("\n2"));
		await().during(Duration.ofMillis(300))
			.atMost(Duration.ofSeconds(30))
			.until(() -> waiting.getState() == Thread.State.TIMED_WAITING);
		doomed.destroyForcibly().waitFor(30, TimeUnit.SECONDS);

		long releasedAt = System.nanoTime();
		holder.close();
		LockHandle taken = next.get(1, TimeUnit.MINUTES).orElseThrow();
		Duration delay = Duration.ofNanos(System.nanoTime() - releasedAt);

		assertThat(this.redis.command("GET", KEYS.lockKey("report"))).as("the live waiter owns the lock")
			.isNotEmpty();
		assertThat(delay).as("one claim lease of 1s, and a re-check interval of 10 minutes that played no part")
			.isGreaterThanOrEqualTo(Duration.ofMillis(900))
			.isLessThan(Duration.ofSeconds(6));
		taken.close();
	}

	private Process startWaiter(String key, String name) throws Exception {
		int queued = queueLength(key);
		Process worker = new ProcessBuilder(WorkerJvm.command(QueuedWaiterWorker.class, Integer.toString(this.redis.port()),
				key, name))
			.redirectErrorStream(true)
			.redirectOutput(ProcessBuilder.Redirect.DISCARD)
			.start();
		this.workers.add(worker);
		await().atMost(Duration.ofMinutes(1)).until(() -> queueLength(key) == queued + 1);
		return worker;
	}

	private int queueLength(String key) {
		return Integer.parseInt(this.redis.command("LLEN", KEYS.queueKey(key)));
	}

	private DefaultLockService service(Duration recheckInterval) {
		return service(recheckInterval, "holder");
	}

	/** A service standing for a process of its own, {@code instanceId}. */
	private DefaultLockService service(Duration recheckInterval, String instanceId) {
		LettuceConnectionFactory connections = this.redis.connectionFactory();
		RedisReleaseNotifications notifications = RedisReleaseNotifications.started(connections, KEYS);
		RedisLockBackend backend = new RedisLockBackend(connections, KEYS, recheckInterval.multipliedBy(2));
		DefaultLockService service = DefaultLockService.builder(NotifyingStore.of(backend, notifications))
			.recheckInterval(recheckInterval)
			.instanceId(instanceId)
			.build();
		this.resources.add(0, connections::destroy);
		this.resources.add(0, notifications::destroy);
		this.resources.add(0, service);
		return service;
	}

	private static Optional<LockHandle> acquireWithin(DefaultLockService locks, String key, Duration wait) {
		try {
			return locks.tryAcquire(key, HOLD.withWaitTime(wait));
		}
		catch (InterruptedException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
