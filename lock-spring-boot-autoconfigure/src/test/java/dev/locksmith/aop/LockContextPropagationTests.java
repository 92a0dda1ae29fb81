package dev.locksmith.aop;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.task.support.ContextPropagatingTaskDecorator;
import org.springframework.scheduling.annotation.Async;
import org.springframework.scheduling.annotation.EnableAsync;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;
import reactor.core.publisher.Hooks;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import dev.locksmith.annotation.DistributedLock;
import dev.locksmith.annotation.OnBusy;
import dev.locksmith.core.LockContext;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.ReactiveLockContext;
import dev.locksmith.testing.RedisServerExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * {@link LockContext} follows work that a locked method hands to another thread through Micrometer's
 * context propagation: an {@code @Async} task on an executor decorated with Spring's
 * {@link ContextPropagatingTaskDecorator}, and Reactor operators under automatic context propagation, those
 * of a locked {@code Mono} too. The
 * work sees the caller's lock but never keeps, extends or holds it again, and the pool thread forgets it.
 */
class LockContextPropagationTests {

	@RegisterExtension
	static final RedisServerExtension redisServer = new RedisServerExtension();

	private static final Duration PATIENCE = Duration.ofSeconds(10);

	/** Boot's executor, one thread, decorated for context propagation, and the locked beans on it. */
	private final ApplicationContextRunner runner = AspectContexts.onRedis(redisServer.server())
		.withConfiguration(AutoConfigurations.of(TaskExecutionAutoConfiguration.class))
		// a pool of one platform thread, also where virtual threads are on: the tests look at what it keeps;
		// a store call that outlasts the default 2s on a loaded machine would fail the task, not the test's point
		.withPropertyValues("spring.threads.virtual.enabled=false", "spring.task.execution.pool.core-size=1",
				"spring.task.execution.pool.max-size=1", "locksmith.redis-timeout=30s")
		.withUserConfiguration(AsyncConfiguration.class)
		.withBean(ContextPropagatingTaskDecorator.class)
		.withBean(Ledger.class)
		.withBean(Exports.class)
		.withBean(Reports.class);

	@AfterEach
	void disableAutomaticContextPropagation() {
		Hooks.disableAutomaticContextPropagation();
	}

	@Test
	void anAsyncTaskSeesTheLockOfTheMethodThatStartedItAndThePoolThreadForgetsIt() {
		this.runner.run((context) -> {
			Export export = new Export();
			CompletableFuture<Long> token = startExport(context.getBean(Reports.class), "1", export);

			export.mayReturn.complete(null);
			assertThat(token).succeedsWithin(PATIENCE);
			assertThat(export.seen.join().map(LockHandle::fencingToken)).contains(token.join());
			assertThat(export.thread.join()).isNotEqualTo(Thread.currentThread());
			export.mayFinish.complete(null);
			assertThat(export.done).succeedsWithin(PATIENCE);
			assertThat(contextOnPoolThread(context.getBean(ThreadPoolTaskExecutor.class))).succeedsWithin(PATIENCE)
				.isEqualTo(Optional.empty());
		});
	}

	@Test
	void aLockReleasedWhileTheTaskRunsIsNotHeldNorLostAndTheTaskNeverKeptIt() {
		this.runner.run((context) -> {
			Export export = new Export();
			CompletableFuture<Long> token = startExport(context.getBean(Reports.class), "2", export);

			assertThat(export.nestedWhileHeld).succeedsWithin(PATIENCE).isEqualTo(Optional.empty());
			export.mayReturn.complete(null);
			assertThat(token).succeedsWithin(PATIENCE);
			assertThat(exists("report:2")).isFalse();
			export.mayFinish.complete(null);
			assertThat(export.heldAfterRelease).succeedsWithin(PATIENCE).isEqualTo(false);
			assertThat(export.nestedAfterRelease).succeedsWithin(PATIENCE).isEqualTo(Optional.of("ran"));
			assertThat(export.seen.join().orElseThrow().lost().toCompletableFuture()).isNotDone();
			assertThat(export.done).succeedsWithin(PATIENCE);
		});
	}

	@Test
	void anAsyncTaskCanNeitherExtendNorHoldAgainNorReleaseTheLock() {
		this.runner.run((context) -> {
			Export export = new Export();
			CompletableFuture<Long> token = startExport(context.getBean(Reports.class), "3", export);
			LockHandle seen = export.seen.get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS).orElseThrow();

			assertThatIllegalStateException().isThrownBy(() -> seen.extend(Duration.ofMinutes(5)))
				.withMessageContaining("handed to this thread");
			assertThatIllegalStateException().isThrownBy(seen::hold).withMessageContaining("take a hold()");
			seen.close();
			assertThat(seen.isHeld()).isTrue();
			assertThat(exists("report:3")).isTrue();
			export.mayReturn.complete(null);
			assertThat(token).succeedsWithin(PATIENCE);
			export.mayFinish.complete(null);
			assertThat(export.done).succeedsWithin(PATIENCE);
		});
	}

	@Test
	void reactorOperatorsAfterPublishOnSeeTheLockUnderAutomaticContextPropagation() {
		Hooks.enableAutomaticContextPropagation();
		this.runner.run((context) -> {
			Sighting sighting = context.getBean(Reports.class).lookAfterPublishOn("4");

			assertThat(sighting.thread()).isNotEqualTo(Thread.currentThread());
			assertThat(sighting.token()).isEqualTo(sighting.tokenOfCaller());
		});
	}

	@Test
	void operatorsOfALockedMonoSeeItsLockUnderAutomaticContextPropagation() {
		Hooks.enableAutomaticContextPropagation();
		this.runner.run((context) -> {
			Sighting sighting = context.getBean(Reports.class).lookInsideLockedMono("5").block(PATIENCE);

			assertThat(sighting.thread()).isNotEqualTo(Thread.currentThread());
			assertThat(sighting.token()).isEqualTo(sighting.tokenOfCaller());
		});
	}

	/** Calls the locked method on a thread of its own: it returns once the test completes {@code mayReturn}. */
	private static CompletableFuture<Long> startExport(Reports reports, String id, Export export) {
		return CompletableFuture.supplyAsync(() -> reports.startExport(id, export));
	}

	private static CompletableFuture<Optional<LockHandle>> contextOnPoolThread(ThreadPoolTaskExecutor executor) {
		CompletableFuture<Optional<LockHandle>> seen = new CompletableFuture<>();
		executor.getThreadPoolExecutor().execute(() -> seen.complete(LockContext.current()));
		return seen;
	}

	private boolean exists(String key) {
		return redisServer.server().command("EXISTS", "lock:{" + key + "}").equals("1");
	}

	/** What an export task saw; the test says when the locked method returns, and when the task ends. */
	static final class Export {

		final CompletableFuture<Optional<LockHandle>> seen = new CompletableFuture<>();

		final CompletableFuture<Thread> thread = new CompletableFuture<>();

		final CompletableFuture<Optional<String>> nestedWhileHeld = new CompletableFuture<>();

		final CompletableFuture<Void> mayReturn = new CompletableFuture<>();

		final CompletableFuture<Void> mayFinish = new CompletableFuture<>();

		final CompletableFuture<Boolean> heldAfterRelease = new CompletableFuture<>();

		final CompletableFuture<Optional<String>> nestedAfterRelease = new CompletableFuture<>();

		final CompletableFuture<Void> done = new CompletableFuture<>();

	}

	/** The fencing token that an operator saw on its thread, and the token of the locked caller. */
	record Sighting(Thread thread, long token, long tokenOfCaller) {
	}

	@Configuration(proxyBeanMethods = false)
	@EnableAsync
	static class AsyncConfiguration {

	}

	/** Locked methods that hand work to other threads. */
	static class Reports {

		private final Exports exports;

		Reports(Exports exports) {
			this.exports = exports;
		}

		/** Starts the export and returns when the test says so: the lock is then released while the export runs. */
		@DistributedLock(name = "report", key = "#id")
		public long startExport(String id, Export export) {
			this.exports.export(id, export);
			export.mayReturn.orTimeout(PATIENCE.toMillis(), TimeUnit.MILLISECONDS).join();
			return LockContext.current().orElseThrow().fencingToken();
		}

		@DistributedLock(name = "report", key = "#id")
		public Sighting lookAfterPublishOn(String id) {
			long token = LockContext.current().orElseThrow().fencingToken();
			return Mono.just(id)
				.publishOn(Schedulers.parallel())
				.map((ignored) -> new Sighting(Thread.currentThread(),
						LockContext.current().map(LockHandle::fencingToken).orElse(-1L), token))
				.block(PATIENCE);
		}

		@DistributedLock(name = "report", key = "#id")
		public Mono<Sighting> lookInsideLockedMono(String id) {
			return ReactiveLockContext.current()
				.publishOn(Schedulers.parallel())
				.map((handle) -> new Sighting(Thread.currentThread(),
						LockContext.current().map(LockHandle::fencingToken).orElse(-1L), handle.fencingToken()));
		}

	}

	/** The work handed over: it looks at its lock while the caller holds it, and again after the release. */
	static class Exports {

		private final Ledger ledger;

		Exports(Ledger ledger) {
			this.ledger = ledger;
		}

		@Async
		public void export(String id, Export export) {
			export.thread.complete(Thread.currentThread());
			export.seen.complete(LockContext.current());
			export.nestedWhileHeld.complete(Optional.ofNullable(this.ledger.record(id)));
			export.mayFinish.orTimeout(PATIENCE.toMillis(), TimeUnit.MILLISECONDS).join();
			export.heldAfterRelease.complete(LockContext.current().orElseThrow().isHeld());
			export.nestedAfterRelease.complete(Optional.ofNullable(this.ledger.record(id)));
			export.done.complete(null);
		}

	}

	/** A locked call on the report's key: skipped while another call holds the lock. */
	static class Ledger {

		@DistributedLock(name = "report", key = "#id", onBusy = OnBusy.SKIP)
		public String record(String id) {
			return "ran";
		}

	}

}
