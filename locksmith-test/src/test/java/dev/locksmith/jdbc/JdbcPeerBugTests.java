package dev.locksmith.jdbc;

import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.locksmith.annotation.LockMode;
import dev.locksmith.core.DefaultLockService;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockOwner;
import dev.locksmith.core.LockStore.AcquireRequest;
import dev.locksmith.core.LockStore.AcquireResult;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The bugs that the lock stores on a database of ShedLock and Spring Integration had, each as a test that the
 * PostgreSQL store passes.
 */
@Tag("slow")
class JdbcPeerBugTests {

	@RegisterExtension
	static final PostgresServerExtension postgres = PostgresServerExtension.withLockSchema();

	private static final LockOptions LONG = LockOptions.ofTtl(Duration.ofSeconds(30));

	@RegisterExtension
	final JdbcStores stores = new JdbcStores(postgres);

	private final ExecutorService threads = Executors.newCachedThreadPool();

	@AfterEach
	void stopThreads() {
		this.threads.shutdownNow();
	}

	// ShedLock #3577: two instances both took a lock whose grant shared the application's transaction
	@Test
	void twoInstancesNeverBothHoldALockTakenInsideARolledBackTransaction() throws Exception {
		DefaultLockService locks = this.stores.service(this.stores.store(postgres.dataSource()));
		DefaultLockService others = this.stores.service(this.stores.store(postgres.dataSource()));
		LockHandle held;
		try (Connection application = postgres.dataSource().getConnection()) {
			application.setAutoCommit(false);
			held = locks.tryAcquire("job", LONG).orElseThrow();
			application.rollback();
		}

		assertThat(others.tryAcquire("job", LONG)).as("granted once").isEmpty();
		held.close();
		assertThat(others.tryAcquire("job", LONG).orElseThrow().fencingToken()).isGreaterThan(held.fencingToken());
	}

	// ShedLock #364: "could not serialize access due to concurrent update" when instances lock at once
	@ParameterizedTest
	@ValueSource(strings = { "TRANSACTION_SERIALIZABLE", "TRANSACTION_REPEATABLE_READ" })
	void concurrentAcquiresOnAPoolOfAStricterIsolationRaiseNoSerializationFailure(String isolation) throws Exception {
		JdbcLockStore store = this.stores.store(JdbcLockStore.builder(this.stores.pool(8, isolation)).threads(8));
		Queue<Throwable> failures = new ConcurrentLinkedQueue<>();
		List<Future<?>> workers = new ArrayList<>();
		for (int i = 0; i < 8; i++) {
			DefaultLockService locks = this.stores.service(store);
			workers.add(this.threads.submit(() -> lockAndRelease(locks, 20, failures)));
		}
		for (Future<?> worker : workers) {
			worker.get(2, TimeUnit.MINUTES);
		}

		assertThat(failures).isEmpty();
	}

	private static void lockAndRelease(DefaultLockService locks, int times, Queue<Throwable> failures) {
		for (int i = 0; i < times; i++) {
			try {
				locks.tryAcquire((i % 2 == 0) ? "job" : "job-" + i, LONG.withWaitTime(Duration.ofSeconds(30)))
					.ifPresent(LockHandle::close);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
			catch (RuntimeException ex) {
				failures.add(ex);
			}
		}
	}

	// ShedLock #226: "duplicate key value violates unique constraint" when instances first lock one new key
	@Test
	void concurrentFirstAcquiresOfANewKeyRaiseNoDuplicateKey() throws Exception {
		JdbcLockStore store = this.stores.store(JdbcLockStore.builder(this.stores.pool(8)).threads(8));
		for (int round = 0; round < 10; round++) {
			String key = "new-" + round;
			CountDownLatch start = new CountDownLatch(1);
			List<Future<AcquireResult>> attempts = new ArrayList<>();
			for (int i = 0; i < 8; i++) {
				LockOwner owner = LockOwner.exclusive("instance-" + i + ":owner");
				attempts.add(this.threads.submit(() -> {
					start.await();
					return store.tryAcquire(new AcquireRequest(List.of(key), owner, LONG.ttl(), Duration.ZERO)).get();
				}));
			}
			start.countDown();
			int granted = 0;
			for (Future<AcquireResult> attempt : attempts) {
				granted += attempt.get(1, TimeUnit.MINUTES).acquired() ? 1 : 0;
			}
			assertThat(granted).as("grants of %s", key).isOne();
		}
	}

	// ShedLock #982 and #713: a row per lock name, never deleted, so the table grows with every new key
	@Test
	void locksOfManyDistinctKeysLeaveNoRowBehindButTheirFences() throws Exception {
		DefaultLockService locks = this.stores.service(this.stores.store(postgres.dataSource()));
		DefaultLockService others = this.stores.service(this.stores.store(postgres.dataSource()));
		for (int i = 0; i < 50; i++) {
			locks.tryAcquire("exclusive-" + i, LONG).orElseThrow().close();
			locks.tryAcquire("read-" + i, LONG.withMode(LockMode.READ)).orElseThrow().close();
			locks.tryAcquire("permit-" + i, LONG.withPermits(3)).orElseThrow().close();
			try (LockHandle held = locks.tryAcquire("waited-" + i, LONG).orElseThrow()) {
				assertThat(others.tryAcquire("waited-" + i, LONG.withWaitTime(Duration.ofMillis(20)))).isEmpty();
			}
		}

		assertThat(rows()).as("rows of locks, shares and waiters").isZero();
		assertThat(this.stores.number("SELECT count(*) FROM locksmith_fences")).isEqualTo(200);
	}

	// ShedLock #982 and #713: rows of holders that died, never released, stay until their key is locked again
	@Test
	void leasesThatEndedUnreleasedAreSweptByLaterGrants() throws Exception {
		JdbcLockStore store = this.stores.store(postgres.dataSource());
		List<String> keys = IntStream.range(0, 20).mapToObj((i) -> "abandoned-" + i).toList();
		AcquireRequest abandoned = new AcquireRequest(keys, LockOwner.exclusive("dead:owner"), Duration.ofSeconds(3),
				Duration.ZERO);
		assertThat(store.tryAcquire(abandoned).get().acquired()).isTrue();
		assertThat(rows()).isEqualTo(20);

		DefaultLockService locks = this.stores.service(store);
		await().atMost(Duration.ofMinutes(1)).until(() -> {
			locks.tryAcquire("live", LONG).orElseThrow().close();
			return rows() == 0;
		});
	}

	private long rows() throws Exception {
		return this.stores.number("SELECT (SELECT count(*) FROM locksmith_locks) + (SELECT count(*) FROM "
				+ "locksmith_shares) + (SELECT count(*) FROM locksmith_waiters)");
	}

}
