package dev.locksmith.aop;

import java.time.Duration;
import java.util.concurrent.Callable;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.locksmith.annotation.DistributedLock;
import dev.locksmith.annotation.LockMode;
import dev.locksmith.core.LockContext;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockService;
import dev.locksmith.redis.TestLockKeys;
import dev.locksmith.testing.CommandMonitor;
import dev.locksmith.testing.RedisServer;
import dev.locksmith.testing.RedisServerExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * {@code LockService.callLocked} and {@code @DistributedLock} nest in each other as either nests in itself: the
 * inner call holds the outer call's lock again, without a round trip and without waiting on its own caller, and the
 * lock lives until the outer call ends. A read lock is never upgraded, whichever of the two asks.
 */
class ProgrammaticNestingTests {

	@RegisterExtension
	static final RedisServerExtension redisServer = new RedisServerExtension();

	/** Long enough that an inner call waiting on its own outer call would outlast the test's bound. */
	private static final LockOptions PATIENT = LockOptions.ofTtl(Duration.ofSeconds(30))
		.withWaitTime(Duration.ofMinutes(5));

	private static final Duration BOUND = Duration.ofMinutes(1);

	private RedisServer redis;

	private ApplicationContextRunner runner;

	@BeforeEach
	void configure() {
		this.redis = redisServer.server();
		this.runner = AspectContexts.onRedis(this.redis).withBean(Ledger.class);
	}

	@Test
	void aProgrammaticCallNestedInAnAnnotatedOneHoldsItsLockAgainWithoutARoundTrip() {
		this.runner.run((context) -> {
			LockService locks = context.getBean(LockService.class);
			Ledger ledger = context.getBean(Ledger.class);
			warmUp(ledger);
			try (CommandMonitor monitor = this.redis.monitor()) {
				assertTimeoutPreemptively(BOUND, () -> ledger.write("acct-1", () -> {
					LockHandle outer = LockContext.current().orElseThrow();
					int scripts = scripts(monitor);
					long inner = locks.callLocked("ledger:acct-1", PATIENT,
							() -> LockContext.current().orElseThrow().fencingToken());
					assertThat(scripts(monitor)).as("scripts sent for the nested call").isEqualTo(scripts);
					assertThat(inner).as("the nested call's fencing token").isEqualTo(outer.fencingToken());
					assertThat(outer.isHeld()).as("held after the nested call ended").isTrue();
					assertThat(locks.tryAcquire("ledger:acct-1", LockOptions.ofTtl(Duration.ofSeconds(5))))
						.as("another acquisition while the outer call still runs")
						.isEmpty();
					return null;
				}), "the programmatic call waited for the lock of the annotated call around it");
			}
			assertThat(locks.isLocked("ledger:acct-1")).as("released when the outer call ended").isFalse();
		});
	}

	@Test
	void anAnnotatedCallNestedInAProgrammaticOneHoldsItsLockAgainWithoutARoundTrip() {
		this.runner.run((context) -> {
			LockService locks = context.getBean(LockService.class);
			Ledger ledger = context.getBean(Ledger.class);
			warmUp(ledger);
			try (CommandMonitor monitor = this.redis.monitor()) {
				assertTimeoutPreemptively(BOUND, () -> locks.callLocked("ledger:acct-2", PATIENT, () -> {
					LockHandle outer = LockContext.current().orElseThrow();
					int scripts = scripts(monitor);
					long inner = ledger.write("acct-2", () -> LockContext.current().orElseThrow().fencingToken());
					assertThat(scripts(monitor)).as("scripts sent for the nested call").isEqualTo(scripts);
					assertThat(locks.tryAcquire("ledger:acct-2", LockOptions.ofTtl(Duration.ofSeconds(5))))
						.as("another acquisition while the outer call still runs")
						.isEmpty();
					assertThat(inner).as("the nested call's fencing token").isEqualTo(outer.fencingToken());
					assertThat(outer.isHeld()).as("held after the nested call ended").isTrue();
					return null;
				}), "the annotated call waited for the lock of the programmatic call around it");
			}
			assertThat(locks.isLocked("ledger:acct-2")).as("released when the outer call ended").isFalse();
		});
	}

	@Test
	void aProgrammaticWriteNestedInAnAnnotatedReadFailsAtOnceAsAnAnnotatedOneDoes() {
		this.runner.run((context) -> {
			LockService locks = context.getBean(LockService.class);
			Ledger ledger = context.getBean(Ledger.class);
			assertTimeoutPreemptively(BOUND, () -> assertThatIllegalStateException()
				.isThrownBy(() -> ledger.read("acct-3", () -> locks.callLocked("ledger:acct-3", PATIENT, () -> true)))
				.withMessage("LockService.callLocked asks for lock 'ledger:******' as a writer while this thread holds "
						+ "it as a reader: a read lock cannot be upgraded, as two readers that both upgrade would each "
						+ "wait for the other forever; take the write lock from the start"));
			assertTimeoutPreemptively(BOUND, () -> assertThatIllegalStateException()
				.isThrownBy(() -> locks.callLocked("ledger:acct-3", PATIENT.withMode(LockMode.READ),
						() -> ledger.write("acct-3", () -> true)))
				.withMessageEndingWith(" asks for lock 'ledger:******' as a writer while this thread holds it as a "
						+ "reader: a read lock cannot be upgraded, as two readers that both upgrade would each wait for "
						+ "the other forever; take the write lock from the start")
				.withMessageStartingWith("Ledger.write("));
			assertThat(locks.isLocked("ledger:acct-3")).as("the read locks released").isFalse();
		});
	}

	/** How many scripts (acquisitions, releases, extensions) the store has run so far. */
	private static int scripts(CommandMonitor monitor) {
		return (int) monitor.clientCommands().stream().filter("EVALSHA"::equals).count();
	}

	/** Takes and releases one lock, so that the release channel is subscribed before commands are counted. */
	private void warmUp(Ledger ledger) throws Exception {
		ledger.write("warm-up", () -> null);
		await().until(() -> this.redis.subscribers(TestLockKeys.releaseChannel("")) > 0);
	}

	static class Ledger {

		@DistributedLock(name = "ledger", key = "#id", waitTime = "5m")
		public <T> T write(String id, Callable<T> inside) throws Exception {
			return inside.call();
		}

		@DistributedLock(name = "ledger", key = "#id", mode = LockMode.READ, waitTime = "5m")
		public <T> T read(String id, Callable<T> inside) throws Exception {
			return inside.call();
		}

	}

}
