package dev.locksmith.aop;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.locksmith.annotation.DistributedLock;
import dev.locksmith.annotation.LockMode;
import dev.locksmith.core.LockOwner;
import dev.locksmith.core.LockStore;
import dev.locksmith.core.ReleaseNotifications;
import dev.locksmith.core.StoreAdministration;
import dev.locksmith.testing.RedisServerExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A read lock or permits on a store that holds exclusive locks only stop the startup, naming the
 * method, the store and what to do, instead of failing the method's first call.
 */
class SharedLockStoreStartupTests {

	@RegisterExtension
	static final RedisServerExtension first = new RedisServerExtension();

	@RegisterExtension
	static final RedisServerExtension second = new RedisServerExtension();

	@RegisterExtension
	static final RedisServerExtension third = new RedisServerExtension();

	private ApplicationContextRunner onRedlock() {
		String nodes = Stream.of(first, second, third)
			.map((redis) -> "redis://127.0.0.1:" + redis.server().port())
			.collect(Collectors.joining(","));
		return AspectContexts.onRedis(first.server())
			.withPropertyValues("locksmith.store=redlock", "locksmith.redlock.nodes=" + nodes);
	}

	@Test
	void aReadLockOnRedlockStopsTheStartupNamingTheMethodAndTheStore() {
		onRedlock().withBean(Reports.class).run((context) -> {
			assertThat(context).hasFailed();
			FailureAnalysis analysis = StartupFailureAnalysis.of(context.getStartupFailure());
			assertThat(analysis).as("analysed by Locksmith").isNotNull();
			assertThat(analysis.getDescription()).isEqualTo("@DistributedLock on Reports.read(String): mode = READ "
					+ "needs a lock store that grants shares, but the lock store RedlockLockStore holds exclusive "
					+ "locks only");
			assertThat(analysis.getAction()).startsWith("Use mode = WRITE with permits = 1 on Reports.read(String), "
					+ "or keep its locks in a store that grants read locks and permits: locksmith.store=redis");
		});
	}

	@Test
	void permitsOnRedlockStopTheStartup() {
		onRedlock().withBean(Renderer.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).hasStackTraceContaining("@DistributedLock on Renderer.render(): "
					+ "permits = 4 needs a lock store that grants shares, but the lock store RedlockLockStore holds "
					+ "exclusive locks only");
		});
	}

	@Test
	void exclusiveLocksOnRedlockStart() {
		onRedlock().withBean(Ledger.class).run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void aStoreOfOnesOwnThatGrantsNoSharesIsAskedToo() {
		AspectContexts.onRedis(first.server())
			.withBean(LockStore.class, ExclusiveOnlyStore::new)
			.withBean(Reports.class)
			.run((context) -> assertThat(context).getFailure()
				.hasMessageContaining("@DistributedLock on Reports.read(String): mode = READ needs a lock store that "
						+ "grants shares, but the lock store ExclusiveOnlyStore holds exclusive locks only"));
	}

	@Test
	void readLocksAndPermitsOnRedisStart() {
		AspectContexts.onRedis(first.server())
			.withBean(Reports.class)
			.withBean(Renderer.class)
			.run((context) -> assertThat(context).hasNotFailed());
	}

	static class Reports {

		@DistributedLock(key = "#id", mode = LockMode.READ)
		public String read(String id) {
			return id;
		}

	}

	static class Renderer {

		@DistributedLock(permits = 4)
		public void render() {
		}

	}

	static class Ledger {

		@DistributedLock(key = "#id")
		public void post(String id) {
		}

	}

	/** A store whose every call fails: only its answer to {@link #grantsShares()} matters here. */
	static class ExclusiveOnlyStore implements LockStore {

		@Override
		public CompletableFuture<AcquireResult> tryAcquire(AcquireRequest request) {
			return CompletableFuture.failedFuture(new UnsupportedOperationException());
		}

		@Override
		public CompletableFuture<Integer> release(List<String> keys, LockOwner owner,
				ReleaseNotifications.Listener handOvers) {
			return CompletableFuture.failedFuture(new UnsupportedOperationException());
		}

		@Override
		public StoreAdministration administration() {
			throw new UnsupportedOperationException();
		}

		@Override
		public List<CompletableFuture<Boolean>> extend(List<LeaseExtension> leases) {
			return List.of();
		}

		@Override
		public CompletableFuture<Boolean> isLocked(String key) {
			return CompletableFuture.failedFuture(new UnsupportedOperationException());
		}

	}

}
