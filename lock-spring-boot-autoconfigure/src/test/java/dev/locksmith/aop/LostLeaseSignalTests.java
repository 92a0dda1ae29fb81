package dev.locksmith.aop;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import dev.locksmith.annotation.DistributedLock;
import dev.locksmith.core.LockContext;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockLostException;
import dev.locksmith.testing.RedisServer;
import dev.locksmith.testing.RedisServerExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Work learns that its lease is lost while it still runs: blocking code through
 * {@link LockHandle#lost()}, a {@code Flux} or {@code Mono} by ending with {@link LockLostException}
 * and cancelling its source. The lease is lost by deleting the lock in Redis, so that the next renewal
 * is refused.
 */
class LostLeaseSignalTests {

	@RegisterExtension
	static final RedisServerExtension redisServer = new RedisServerExtension();

	private static final Duration PATIENCE = Duration.ofSeconds(10);

	private RedisServer redis;

	private ApplicationContextRunner runner;

	@BeforeEach
	void configure() {
		this.redis = redisServer.server();
		this.runner = AspectContexts.onRedis(this.redis).withBean(Sweeper.class);
	}

	@Test
	void blockingCodeObservesTheLossWhileItRunsAndTheCallerGetsLockLostException() {
		this.runner.run((context) -> {
			Sweeper sweeper = context.getBean(Sweeper.class);
			CompletableFuture<String> sweep = CompletableFuture.supplyAsync(() -> sweeper.sweepUntilLost("1"));
			assertThat(sweeper.started().await(PATIENCE.toMillis(), TimeUnit.MILLISECONDS)).isTrue();

			loseLease("sweep:1");

			assertThat(sweep).failsWithin(PATIENCE).withThrowableThat().havingCause()
				.isInstanceOf(LockLostException.class);
			assertThat(sweeper.sawLossWhileRunning()).isTrue();
		});
	}

	@Test
	void aNormalReleaseNeverSignalsLoss() {
		this.runner.run((context) -> {
			LockHandle handle = context.getBean(Sweeper.class).quickSweep("2");
			assertThat(handle.isHeld()).isFalse();
			assertThat(handle.lost().toCompletableFuture()).isNotDone();
		});
	}

	@Test
	void aFluxUnderALostLeaseStopsEmittingAndEndsWithLockLostException() {
		this.runner.run((context) -> {
			Sweeper sweeper = context.getBean(Sweeper.class);
			AtomicReference<Throwable> failure = new AtomicReference<>();
			sweeper.ticks("3").subscribe((tick) -> { }, failure::set);
			await().atMost(PATIENCE).until(() -> sweeper.emitted().get() >= 2);

			loseLease("ticks:3");

			await().atMost(PATIENCE).untilAsserted(() -> assertThat(failure.get()).isInstanceOf(LockLostException.class));
			assertThat(sweeper.sourceCancelled()).isTrue();
			int emittedAtTheEnd = sweeper.emitted().get();
			// ten ticks' time: a source still running under the lost lock would have produced more
			await().during(Duration.ofMillis(500))
				.atMost(PATIENCE)
				.until(() -> sweeper.emitted().get() == emittedAtTheEnd);
		});
	}

	@Test
	void aMonoUnderALostLeaseEndsWithLockLostException() {
		this.runner.run((context) -> {
			Mono<String> never = context.getBean(Sweeper.class).waitForever("4");
			CompletableFuture<String> result = never.toFuture();
			await().atMost(PATIENCE).until(() -> exists("wait:4"));

			loseLease("wait:4");

			assertThat(result).failsWithin(PATIENCE).withThrowableThat().havingCause()
				.isInstanceOf(LockLostException.class);
		});
	}

	/** Deletes the lock in Redis: the holder's next renewal is refused and the engine finds the lease lost. */
	private void loseLease(String key) {
		assertThat(this.redis.command("DEL", "lock:{" + key + "}")).isEqualTo("1");
	}

	private boolean exists(String key) {
		return this.redis.command("EXISTS", "lock:{" + key + "}").equals("1");
	}

	/** Long work under short, renewed leases. */
	static class Sweeper {

		private final CountDownLatch started = new CountDownLatch(1);

		private final AtomicInteger emitted = new AtomicInteger();

		private volatile boolean sawLossWhileRunning;

		private volatile boolean sourceCancelled;

		// Read through the proxy, from the target.

		public CountDownLatch started() {
			return this.started;
		}

		public AtomicInteger emitted() {
			return this.emitted;
		}

		public boolean sawLossWhileRunning() {
			return this.sawLossWhileRunning;
		}

		public boolean sourceCancelled() {
			return this.sourceCancelled;
		}

		/** Works until told that the lock is lost, then returns as if nothing happened. */
		@DistributedLock(name = "sweep", key = "#id", ttl = "600ms")
		public String sweepUntilLost(String id) {
			LockHandle handle = LockContext.current().orElseThrow();
			this.started.countDown();
			handle.lost().toCompletableFuture().orTimeout(10, TimeUnit.SECONDS).join();
			this.sawLossWhileRunning = !handle.isHeld();
			return "swept";
		}

		@DistributedLock(name = "sweep", key = "#id")
		public LockHandle quickSweep(String id) {
			return LockContext.current().orElseThrow();
		}

		@DistributedLock(name = "ticks", key = "#id", ttl = "600ms")
		public Flux<Long> ticks(String id) {
			return Flux.interval(Duration.ofMillis(50))
				.doOnNext((tick) -> this.emitted.incrementAndGet())
				.doOnCancel(() -> this.sourceCancelled = true);
		}

		@DistributedLock(name = "wait", key = "#id", ttl = "600ms")
		public Mono<String> waitForever(String id) {
			return Mono.never();
		}

	}

}
