package dev.locksmith.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.locksmith.core.DefaultLockService;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockMode;
import dev.locksmith.core.LockOptions;
import dev.locksmith.testing.RedisServer;
import dev.locksmith.testing.RedisServerExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/** Read locks and permits on a real {@code redis-server}, each engine standing for a process of its own. */
class ReadWriteLockTests {

	private static final LockOptions WRITE = LockOptions.ofTtl(Duration.ofSeconds(30));

	private static final LockOptions READ = WRITE.withMode(LockMode.READ);

	private static final Duration WAIT = Duration.ofSeconds(20);

	@RegisterExtension
	static final RedisServerExtension redisServer = new RedisServerExtension();

	private final ExecutorService threads = Executors.newCachedThreadPool();

	private LockEngines engines;

	private RedisServer redis;

	@BeforeEach
	void startEngines() {
		this.redis = redisServer.server();
		this.redis.command("FLUSHALL");
		this.engines = new LockEngines(this.redis, 4, Duration.ofMillis(200));
	}

	@AfterEach
	void stopEngines() {
		this.threads.shutdownNow();
		this.engines.close();
	}

	@Test
	void readersOfSeveralProcessesShareAKeyAndAWriterWaitsUntilTheLastOneLeaves() throws Exception {
		LockHandle first = engine(0).tryAcquire("doc", READ).orElseThrow();
		LockHandle second = engine(1).tryAcquire("doc", READ).orElseThrow();

		assertThat(engine(2).tryAcquire("doc", WRITE)).isEmpty();
		assertThat(this.redis.command("GET", "lock:{doc}")).isEqualTo("@read");
		assertThat(this.redis.command("ZCARD", "lock:holders:{doc}")).isEqualTo("2");
		assertThat(second.fencingToken()).isGreaterThan(first.fencingToken());
		first.close();
		assertThat(engine(2).tryAcquire("doc", WRITE)).isEmpty();
		second.close();
		try (LockHandle writer = engine(2).tryAcquire("doc", WRITE).orElseThrow()) {
			assertThat(writer.fencingToken()).isGreaterThan(second.fencingToken());
			assertThat(engine(0).tryAcquire("doc", READ)).isEmpty();
		}
	}

	@Test
	void aReaderArrivingBehindAQueuedWriterWaitsSoWritersAreNotStarved() throws Exception {
		LockHandle reader = engine(0).tryAcquire("doc", READ).orElseThrow();
		Future<Optional<LockHandle>> writer = waitFor(1, WRITE);
		awaitQueued(1);

		assertThat(engine(2).tryAcquire("doc", READ)).as("a reader passing the queued writer").isEmpty();
		reader.close();
		try (LockHandle granted = writer.get(10, TimeUnit.SECONDS).orElseThrow()) {
			assertThat(granted.isHeld()).isTrue();
			assertThat(this.redis.command("GET", "lock:{doc}")).startsWith("p1:");
		}
	}

	@Test
	void releasingAWriterGrantsEveryQueuedReaderUpToTheNextWriterInOneRelease() throws Exception {
		LockHandle writer = engine(0).tryAcquire("doc", WRITE).orElseThrow();
		Future<Optional<LockHandle>> firstReader = waitFor(1, READ);
		awaitQueued(1);
		Future<Optional<LockHandle>> secondReader = waitFor(2, READ);
		awaitQueued(2);
		Future<Optional<LockHandle>> nextWriter = waitFor(3, WRITE);
		awaitQueued(3);

		this.redis.command("CONFIG", "RESETSTAT");
		writer.close();
		LockHandle first = firstReader.get(10, TimeUnit.SECONDS).orElseThrow();
		LockHandle second = secondReader.get(10, TimeUnit.SECONDS).orElseThrow();
		assertThat(this.redis.command("ZCARD", "lock:holders:{doc}")).isEqualTo("2");
		assertThat(List.of(first.fencingToken(), second.fencingToken())).allMatch((token) -> token > writer.fencingToken())
			.doesNotHaveDuplicates();
		assertThat(nextWriter).isNotDone();
		assertThat(this.redis.command("LRANGE", "lock:queue:{doc}", "0", "-1")).startsWith("p3:");
		first.close();
		second.close();
		nextWriter.get(10, TimeUnit.SECONDS).orElseThrow().close();
	}

	@Test
	void aCrashedPermitHolderFreesItsPermitAtItsOwnLeaseWhileAnotherHolderKeepsRenewing() throws Exception {
		LockOptions permits = LockOptions.ofTtl(Duration.ofMillis(600)).withPermits(2);
		LockHandle crashed = engine(0).tryAcquire("pdf", permits.withRenew(false)).orElseThrow();
		LockHandle renewing = engine(1).tryAcquire("pdf", permits).orElseThrow();
		long grantedAt = System.nanoTime();

		Optional<LockHandle> third = engine(2).tryAcquire("pdf", permits.withWaitTime(WAIT));

		assertThat(third).isPresent();
		assertThat(Duration.ofNanos(System.nanoTime() - grantedAt)).isGreaterThan(Duration.ofMillis(500));
		assertThat(crashed.isHeld()).isFalse();
		assertThat(renewing.isHeld()).isTrue();
		assertThat(this.redis.command("ZCARD", "lock:holders:{pdf}")).isEqualTo("2");
		assertThat(engine(3).tryAcquire("pdf", permits)).isEmpty();
		renewing.close();
		third.get().close();
	}

	@Test
	void aPermitCountOtherThanTheHeldOneIsRefusedNamingBoth() throws Exception {
		try (LockHandle held = engine(0).tryAcquire("pdf", WRITE.withPermits(4)).orElseThrow()) {
			assertThatExceptionOfType(IllegalStateException.class)
				.isThrownBy(() -> engine(1).tryAcquire("pdf", WRITE.withPermits(3)))
				.withMessageContaining("held with 4 permits")
				.withMessageContaining("asked for 3");
		}
	}

	@Test
	void atMostThePermitCountHoldsAKeyAtOnceUnderContention() throws Exception {
		LockOptions permits = LockOptions.ofTtl(Duration.ofSeconds(5)).withPermits(3).withWaitTime(WAIT);
		AtomicInteger inside = new AtomicInteger();
		AtomicInteger most = new AtomicInteger();
		List<CompletableFuture<Void>> workers = new ArrayList<>();
		for (int i = 0; i < 12; i++) {
			DefaultLockService engine = engine(i % 4);
			workers.add(CompletableFuture.runAsync(() -> {
				for (int round = 0; round < 10; round++) {
					engine.runLocked("pdf", permits, () -> {
						most.accumulateAndGet(inside.incrementAndGet(), Math::max);
						LockSupport.parkNanos(Duration.ofMillis(3).toNanos());
						inside.decrementAndGet();
					});
				}
			}, this.threads));
		}
		CompletableFuture.allOf(workers.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);

		assertThat(most.get()).isBetween(2, 3);
		assertThat(this.redis.command("EXISTS", "lock:{pdf}")).isEqualTo("0");
	}

	private DefaultLockService engine(int index) {
		return this.engines.engine(index);
	}

	private Future<Optional<LockHandle>> waitFor(int engine, LockOptions options) {
		return this.threads.submit(() -> engine(engine).tryAcquire("doc", options.withWaitTime(WAIT)));
	}

	private void awaitQueued(int waiters) {
		await().atMost(Duration.ofSeconds(10))
			.until(() -> this.redis.command("LLEN", "lock:queue:{doc}"), (length) -> length.equals(Integer.toString(waiters)));
	}

}
