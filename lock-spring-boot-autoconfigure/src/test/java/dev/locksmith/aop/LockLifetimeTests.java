package dev.locksmith.aop;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;

import dev.locksmith.aop.LockedServices.Jobs;
import dev.locksmith.core.LockBusyException;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockInfo;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockService;
import dev.locksmith.redis.TestLockKeys;
import dev.locksmith.testing.CommandMonitor;
import dev.locksmith.testing.RedisServer;
import dev.locksmith.testing.RedisServerExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

/**
 * A lock lives exactly as long as its work: futures, reactive streams and nested calls, with lock
 * state read from Redis or tried by a second owner.
 */
class LockLifetimeTests {

	@RegisterExtension
	static final RedisServerExtension redisServer = new RedisServerExtension();

	private static final LockOptions HOLD = LockOptions.ofTtl(Duration.ofSeconds(30));

	private static final Duration PATIENCE = Duration.ofSeconds(15);

	private RedisServer redis;

	private ApplicationContextRunner runner;

	@BeforeEach
	void configure() {
		this.redis = redisServer.server();
		this.runner = AspectContexts.onRedis(this.redis).withBean(Jobs.class);
	}

	@ParameterizedTest
	@EnumSource
	void whatACallerDoesToItsFutureNeverFreesTheLockOfWorkThatStillRuns(CallerAction action) {
		this.runner.run((context) -> {
			CompletableFuture<String> work = new CompletableFuture<>();
			CompletableFuture<String> result = context.getBean(Jobs.class).async("1", work);
			action.apply(result);
			await().atMost(PATIENCE).until(result::isDone);

			assertThat(exists("job:1")).as("the lock of running work").isTrue();
			assertThat(context.getBean(LockService.class).tryAcquire("job:1", HOLD)).isEmpty();
			work.complete("done");
			awaitReleased("job:1");
		});
	}

	@Test
	void asyncWorkStartedUnderAHeldLockKeepsItUntilTheWorkCompletes() {
		this.runner.run((context) -> {
			CompletableFuture<String> work = new CompletableFuture<>();
			context.getBean(Jobs.class).startAsync("2", work);

			assertThat(exists("job:2")).as("held after the starting method returned").isTrue();
			assertThat(context.getBean(LockService.class).tryAcquire("job:2", HOLD)).isEmpty();
			work.complete("done");
			awaitReleased("job:2");
		});
	}

	@ParameterizedTest
	@EnumSource
	void aMonoCancelledAtAnyStageOfAcquisitionLeavesNoLockBehind(CancelAt stage) {
		this.runner.withBean(AcquisitionGate.class, () -> new AcquisitionGate(stage)).run((context) -> {
			AcquisitionGate gate = context.getBean(AcquisitionGate.class);
			Disposable subscription = context.getBean(Jobs.class).reactive("cancel", Mono.never()).subscribe();
			if (stage == CancelAt.WHILE_RUNNING) {
				await().atMost(PATIENCE).until(() -> exists("job:cancel"));
			}
			else if (stage != CancelAt.SUBSCRIPTION) {
				assertThat(gate.reached.await(PATIENCE.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
			}
			subscription.dispose();
			gate.proceed.countDown();
			if (stage == CancelAt.BEFORE_GRANT || stage == CancelAt.BETWEEN_GRANT_AND_DELIVERY) {
				assertThat(gate.returned.await(PATIENCE.toMillis(), TimeUnit.MILLISECONDS))
					.as("the store answered the acquisition that the cancel overtook").isTrue();
			}

			awaitReleased("job:cancel");
			await().atMost(PATIENCE).until(() -> context.getBean(LockService.class).heldLocks().isEmpty());
		});
	}

	@Test
	void monoAndFluxMethodsSeeTheirLockInLockContextAndInTheReactorContext() {
		this.runner.run((context) -> {
			Jobs jobs = context.getBean(Jobs.class);

			List<Long> mono = jobs.tokens("3").block(PATIENCE);
			List<Long> flux = jobs.tokenStream("3").collectList().block(PATIENCE);

			assertThat(mono).hasSize(2).allMatch((token) -> token > 0);
			assertThat(mono.get(1)).as("token inside the pipeline").isEqualTo(mono.get(0));
			assertThat(flux).hasSize(3).containsOnly(flux.get(0));
			assertThat(flux.get(0)).isGreaterThan(mono.get(0));
		});
	}

	@Test
	void aNestedReactiveCallOnAHeldKeyIsReentrantWithoutAnotherRoundTrip() {
		this.runner.run((context) -> {
			Jobs jobs = context.getBean(Jobs.class);
			jobs.outerReactive("warm-up").block(PATIENCE);
			await().until(() -> this.redis.subscribers(TestLockKeys.releaseChannel("")) > 0);
			try (CommandMonitor monitor = this.redis.monitor()) {
				List<Long> tokens = jobs.outerReactive("4").block(PATIENCE);

				assertThat(tokens).hasSize(2);
				assertThat(tokens.get(1)).as("the inner call's token").isEqualTo(tokens.get(0));
				assertThat(monitor.clientCommands()).containsExactly("EVALSHA", "EVALSHA");
			}
			assertThat(exists("job:4")).isFalse();
		});
	}

	@Test
	void aNestedCallForASupersetOfHeldKeysAcquiresOnlyTheMissingOnes() {
		this.runner.run((context) -> {
			LockService other = context.getBean(LockService.class);
			context.getBean(Jobs.class).holdThenLockAll("a", List.of("a", "b"), () -> {
				assertThat(exists("job:a")).isTrue();
				assertThat(exists("job:b")).isTrue();
				assertThat(tryAcquire(other, "job:b")).as("b, acquired for the nested call").isEmpty();
				assertThat(other.heldLocks()).extracting(LockInfo::key, LockInfo::holder)
					.containsExactlyInAnyOrder(tuple("job:a", "Jobs.holdThenLockAll(String, List, Runnable, Runnable)"),
							tuple("job:b", "Jobs.lockAll(List, Runnable)"));
			}, () -> {
				assertThat(exists("job:a")).as("a, still held by the outer call").isTrue();
				assertThat(exists("job:b")).as("b, released with the nested call").isFalse();
			});

			assertThat(exists("job:a")).isFalse();
		});
	}

	@Test
	void aNestedCallForASupersetWhoseMissingKeyIsBusyFailsAndKeepsNothingExtra() {
		this.runner.run((context) -> {
			Jobs jobs = context.getBean(Jobs.class);
			try (LockHandle busy = context.getBean(LockService.class).acquire("job:b", HOLD)) {
				assertThatExceptionOfType(LockBusyException.class)
					.isThrownBy(() -> jobs.holdThenLockAll("c", List.of("c", "b"), () -> {
					}, () -> {
					}))
					.satisfies((ex) -> assertThat(ex.getKey()).isEqualTo("job:b"));

				assertThat(exists("job:c")).as("the outer call's key after it failed").isFalse();
				assertThat(exists("job:b")).as("the other owner's lock").isTrue();
			}
		});
	}

	/**
	 * Nested calls hold the outer call's key while they wait for the others: two of them on opposite keys
	 * wait on each other until a wait time ends, as the annotations guide warns.
	 */
	@Test
	void nestedCallsForOppositeKeysWaitOnEachOtherUntilAWaitTimeEnds() throws Exception {
		this.runner.withPropertyValues("locksmith.default-wait-time=1s").run((context) -> {
			Jobs jobs = context.getBean(Jobs.class);
			CyclicBarrier bothHoldTheirFirstKey = new CyclicBarrier(2);
			Runnable meet = () -> {
				try {
					bothHoldTheirFirstKey.await(PATIENCE.toSeconds(), TimeUnit.SECONDS);
				}
				catch (Exception ex) {
					throw new IllegalStateException(ex);
				}
			};
			ExecutorService callers = Executors.newFixedThreadPool(2);
			try {
				Future<?> forward = callers.submit(() -> jobs.holdThenWaitForAll("a", List.of("a", "b"), meet));
				Future<?> backward = callers.submit(() -> jobs.holdThenWaitForAll("b", List.of("b", "a"), meet));
				List<Throwable> failures = Stream.of(forward, backward)
					.map((call) -> catchThrowable(() -> call.get(PATIENCE.toSeconds(), TimeUnit.SECONDS)))
					.filter(Objects::nonNull)
					.map(Throwable::getCause)
					.toList();
				// the first wait to end fails; the other call may then get the key it waited for
				assertThat(failures).isNotEmpty()
					.allSatisfy((failure) -> assertThat(failure).isInstanceOfSatisfying(LockBusyException.class,
							(busy) -> assertThat(busy.getWaited()).isGreaterThanOrEqualTo(Duration.ofSeconds(1))));
			}
			finally {
				callers.shutdownNow();
			}
		});
	}

	@Test
	void aLockHeldThroughAnotherApplicationIsNotReentrantHere() {
		this.runner.run((first) -> this.runner.run((second) -> {
			Jobs secondJobs = second.getBean(Jobs.class);

			first.getBean(LockService.class).runLocked("job:5", HOLD, () -> assertThatExceptionOfType(
					LockBusyException.class)
				.isThrownBy(() -> secondJobs.lockAll(List.of("5"), () -> {
				})));
		}));
	}

	private boolean exists(String key) {
		return this.redis.command("EXISTS", "lock:{" + key + "}").equals("1");
	}

	private void awaitReleased(String key) {
		await().atMost(PATIENCE).until(() -> !exists(key));
	}

	private static Optional<LockHandle> tryAcquire(LockService locks, String key) {
		try {
			return locks.tryAcquire(key, HOLD);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/** What a caller may do to the future it got back. */
	enum CallerAction {

		CANCEL((future) -> future.cancel(true)),

		OR_TIMEOUT((future) -> future.orTimeout(1, TimeUnit.MILLISECONDS)),

		COMPLETE_ON_TIMEOUT((future) -> future.completeOnTimeout("late", 1, TimeUnit.MILLISECONDS)),

		OBTRUDE_VALUE((future) -> future.obtrudeValue("forced"));

		private final Consumer<CompletableFuture<String>> action;

		CallerAction(Consumer<CompletableFuture<String>> action) {
			this.action = action;
		}

		void apply(CompletableFuture<String> future) {
			this.action.accept(future);
		}

	}

	/** Where a subscriber cancels a locked {@code Mono}. */
	enum CancelAt {

		/** Right after subscribing, wherever acquisition is then. */
		SUBSCRIPTION,

		/** While the lock service is asked, before it grants. */
		BEFORE_GRANT,

		/** After the lock service granted, before the handle reached the pipeline. */
		BETWEEN_GRANT_AND_DELIVERY,

		/** While the method's work runs under the lock. */
		WHILE_RUNNING

	}

	/** Pauses acquisition at one stage until the test has cancelled, by wrapping the application's lock service. */
	static class AcquisitionGate implements BeanPostProcessor {

		final CountDownLatch reached = new CountDownLatch(1);

		final CountDownLatch proceed = new CountDownLatch(1);

		final CountDownLatch returned = new CountDownLatch(1);

		private final CancelAt stage;

		AcquisitionGate(CancelAt stage) {
			this.stage = stage;
		}

		@Override
		public Object postProcessAfterInitialization(Object bean, String beanName) {
			if (!(bean instanceof LockService locks)) {
				return bean;
			}
			return new ForwardingLockService(locks) {

				@Override
				public Optional<LockHandle> tryAcquireAll(Collection<String> keys, LockOptions options)
						throws InterruptedException {
					pauseAt(CancelAt.BEFORE_GRANT);
					Optional<LockHandle> granted = super.tryAcquireAll(keys, options);
					pauseAt(CancelAt.BETWEEN_GRANT_AND_DELIVERY);
					AcquisitionGate.this.returned.countDown();
					return granted;
				}

			};
		}

		/**
		 * Waits for the test at {@code here}, and swallows the interrupt that a cancel sends, as a store
		 * call that the interrupt does not reach would: the lock is then granted after the cancel.
		 */
		private void pauseAt(CancelAt here) {
			if (this.stage != here) {
				return;
			}
			this.reached.countDown();
			while (true) {
				try {
					this.proceed.await();
					return;
				}
				catch (InterruptedException ex) {
					// the cancel's interrupt; go on waiting for the test
				}
			}
		}

	}

}
