package dev.locksmith.jdbc;

import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.locksmith.annotation.LockMode;
import dev.locksmith.core.DefaultLockService;
import dev.locksmith.core.LockAdministration.StoredLock;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockOwner;
import dev.locksmith.core.LockShare;
import dev.locksmith.core.LockStore.AcquireRequest;
import dev.locksmith.core.LockStore.LeaseExtension;
import dev.locksmith.core.LockUnavailableException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * What the PostgreSQL store promises beyond the lock contract: fencing tokens that never repeat, leases on
 * the database's clock, no lost update across killed connections and restarts, failing closed, and waiters
 * that hold no connection.
 */
@Tag("slow")
class JdbcLockStoreTests {

	@RegisterExtension
	static final PostgresServerExtension postgres = PostgresServerExtension.withLockSchema();

	private static final Duration LONG = Duration.ofSeconds(30);

	@RegisterExtension
	final JdbcStores stores = new JdbcStores(postgres);

	@Test
	void fencingTokensStrictlyIncreasePerKeyAcrossRowDeletionLostCountersAndARestart() throws Exception {
		JdbcLockStore store = this.stores.store(postgres.dataSource());
		LockOwner owner = LockOwner.exclusive("instance:owner");
		long first = grant(store, owner);
		store.release(List.of("job"), owner, (key, waiter, claim, token) -> {
		}).get();
		long afterRowDeleted = grant(store, owner);
		postgres.restart();
		store.administration().forceRelease("job").get();
		long afterRestart = grant(store, owner);
		postgres.execute("DELETE FROM locksmith_fences");
		store.administration().forceRelease("job").get();
		long afterCountersLost = grant(store, owner);

		assertThat(List.of(first, afterRowDeleted, afterRestart, afterCountersLost)).isSorted()
			.doesNotHaveDuplicates();
	}

	@Test
	void aLeaseEndsByTheDatabaseClock() throws Exception {
		JdbcLockStore store = this.stores.store(postgres.dataSource());
		grant(store, LockOwner.exclusive("instance:owner"));

		assertThat(this.stores.number("SELECT extract(epoch FROM expires_at - clock_timestamp()) * 1000 FROM locksmith_locks"))
			.isBetween(LONG.toMillis() - 5000, LONG.toMillis());
	}

	@Test
	void aHolderCutOffByKilledConnectionsAndARestartLosesNoUpdate() throws Exception {
		DefaultLockService locks = this.stores.service(this.stores.store(postgres.dataSource()));
		JdbcFencedValues values = new JdbcFencedValues(postgres.dataSource(), "locksmith_");
		LockHandle stale = locks.tryAcquire("account", LockOptions.ofTtl(Duration.ofSeconds(2)).withRenew(false))
			.orElseThrow();
		assertThat(values.write("account", "first", stale.fencingToken())).isTrue();
		postgres.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid <> pg_backend_pid()"
				+ " AND datname = current_database()");
		postgres.restart();

		DefaultLockService others = this.stores.service(this.stores.store(postgres.dataSource()));
		assertThat(others.tryAcquire("account", LockOptions.ofTtl(LONG))).as("the lease outlives the restart")
			.isEmpty();
		LockHandle next = others.tryAcquire("account", LockOptions.ofTtl(LONG).withWaitTime(LONG)).orElseThrow();
		assertThat(values.write("account", "second", next.fencingToken())).isTrue();

		assertThat(values.write("account", "stale", stale.fencingToken())).as("the paused holder is fenced off")
			.isFalse();
		assertThat(values.read("account")).isEqualTo("second");
	}

	@Test
	void anUnreachableDatabaseFailsClosedWithinTheStoreTimeout() throws Exception {
		DefaultLockService locks = this.stores.service(this.stores.store(postgres.dataSource()));
		postgres.stop();
		try {
			long start = System.nanoTime();
			assertThatExceptionOfType(LockUnavailableException.class)
				.isThrownBy(() -> locks.tryAcquire("job", LockOptions.ofTtl(LONG)));
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(4));
		}
		finally {
			postgres.start();
		}
	}

	/** The holder is another process, which releases by calling the schema's function itself. */
	@Test
	void aReleaseInAnotherProcessWakesTheWaiterItHandsTheLockToByNotify() throws Exception {
		Duration longClaims = Duration.ofMinutes(20);
		postgres.execute("SELECT locksmith_acquire(ARRAY['job'], 'elsewhere:1', 300000, 0, 1200000)");
		DefaultLockService patient = this.stores.service(
				this.stores.store(JdbcLockStore.builder(postgres.dataSource()).claimLease(longClaims)), Duration.ofMinutes(10));
		CompletableFuture<Optional<LockHandle>> next = CompletableFuture.supplyAsync(() -> acquireWaiting(patient));
		await().atMost(LONG).until(() -> queued("job") == 1);

		postgres.execute("SELECT locksmith_release(ARRAY['job'], 'elsewhere:1', 1200000)");

		assertThat(next.get(20, TimeUnit.SECONDS)).as("woken by the notice, not by a re-check minutes away")
			.isPresent();
	}

	@Test
	void aCallStuckInTheDatabaseEndsAtTheStatementTimeout() throws Exception {
		JdbcLockStore store = this.stores
			.store(JdbcLockStore.builder(postgres.dataSource()).statementTimeout(Duration.ofMillis(300)));
		try (Connection blocker = postgres.dataSource().getConnection(); Statement statement = blocker.createStatement()) {
			statement.execute("SELECT pg_advisory_lock(1819239275, hashtext('locksmith_job'))");
			CompletableFuture<?> stuck = store.tryAcquire(
					new AcquireRequest(List.of("job"), LockOwner.exclusive("instance:owner"), LONG, Duration.ZERO));

			assertThat(stuck).failsWithin(Duration.ofSeconds(10))
				.withThrowableThat()
				.havingCause()
				.isInstanceOf(LockUnavailableException.class)
				.withMessageContaining("statement timeout");
		}
	}

	@Test
	void waitersHoldNoConnectionWhileTheyWait() throws Exception {
		HikariDataSource pool = this.stores.pool(3);
		JdbcLockStore store = this.stores.store(JdbcLockStore.builder(pool).threads(1));
		DefaultLockService locks = this.stores.service(store);
		LockHandle held = locks.tryAcquire("job", LockOptions.ofTtl(LONG)).orElseThrow();
		List<CompletableFuture<Boolean>> waiters = new ArrayList<>();
		for (int i = 0; i < 20; i++) {
			DefaultLockService waiter = this.stores.service(store);
			waiters.add(CompletableFuture.supplyAsync(() -> acquireWaiting(waiter).map((handle) -> {
				handle.close();
				return true;
			}).orElse(false)));
		}
		await().atMost(LONG).until(() -> queued("job") == 20);

		try (Connection application = pool.getConnection()) {
			assertThat(application.isValid(1)).as("the pool still serves the application").isTrue();
		}
		held.close();
		for (CompletableFuture<Boolean> waiter : waiters) {
			assertThat(waiter.get(60, TimeUnit.SECONDS)).as("each waiter served in turn").isTrue();
		}
	}

	@Test
	void aReaderThatDiedFreesItsShareWhenItsOwnLeaseEndsWhileAnotherRenewsAndTheLockListsTheOther() throws Exception {
		JdbcLockStore store = this.stores.store(postgres.dataSource());
		LockOwner dead = new LockOwner("dead:reader", LockShare.READ);
		LockOwner alive = new LockOwner("alive:reader", LockShare.READ);
		Duration renewed = Duration.ofSeconds(5);
		assertThat(store.tryAcquire(new AcquireRequest(List.of("doc"), dead, Duration.ofMillis(300), Duration.ZERO))
			.get()
			.acquired()).isTrue();
		assertThat(store.tryAcquire(new AcquireRequest(List.of("doc"), alive, renewed, Duration.ZERO)).get().acquired())
			.isTrue();

		await().atMost(LONG).until(() -> store.extend(List.of(new LeaseExtension("doc", alive, renewed))).get(0).get()
				&& this.stores.number("SELECT count(*) FROM locksmith_shares WHERE owner_token = '@read/dead:reader'") == 0);
		StoredLock listed = store.administration().storedLocks(10).get().get(0);
		assertThat(listed.mode()).isEqualTo(LockMode.READ);
		assertThat(listed.holders()).extracting(StoredLock.Holder::instance).containsExactly("alive");
	}

	private Optional<LockHandle> acquireWaiting(DefaultLockService waiter) {
		try {
			return waiter.tryAcquire("job", LockOptions.ofTtl(LONG).withWaitTime(Duration.ofSeconds(60)));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return Optional.empty();
		}
	}

	private static long grant(JdbcLockStore store, LockOwner owner) throws Exception {
		return store.tryAcquire(new AcquireRequest(List.of("job"), owner, LONG, Duration.ZERO))
			.get()
			.fencingTokens()
			.get("job");
	}

	private long queued(String key) throws Exception {
		return this.stores.number("SELECT count(*) FROM locksmith_waiters WHERE lock_key = '" + key + "'");
	}

}
