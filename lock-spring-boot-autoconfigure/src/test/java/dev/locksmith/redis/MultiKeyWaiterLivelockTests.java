package dev.locksmith.redis;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;

import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.locksmith.core.DefaultLockService;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockOptions;
import dev.locksmith.testing.RedisServer;
import dev.locksmith.testing.RedisServerExtension;

import static org.awaitility.Awaitility.await;

/**
 * Defect 1 of the wait queue, exactly as reported: {@code a} and {@code b} are held; W1, then W2, wait
 * for {@code {a, b}}; then Z waits for {@code {a}} alone. When {@code a} is released, neither W1 nor W2
 * can use it while {@code b} stays held, so it must go to Z at once, and nobody may pass it back and
 * forth: the old scripts hand {@code a} from W1 to W2 and back, about 2,000 scripts a second, and Z never
 * gets it.
 */
class MultiKeyWaiterLivelockTests {

	/** Scripts all clients may run in the second after {@code a} is released: the release, Z's grant, re-checks. */
	private static final int SCRIPTS_IN_THE_SECOND_AFTER_THE_RELEASE = 30;

	private static final Duration LONG = Duration.ofSeconds(30);

	@RegisterExtension
	static final RedisServerExtension redisServer = new RedisServerExtension();

	private RedisServer redis;

	private LockEngines engines;

	private final ExecutorService waiters = Executors.newCachedThreadPool();

	@BeforeEach
	void startEngines() {
		this.redis = redisServer.server();
		this.engines = new LockEngines(this.redis, 2, Duration.ofSeconds(1));
	}

	@AfterEach
	void stopEngines() throws Exception {
		this.waiters.shutdownNow();
		this.waiters.awaitTermination(30, TimeUnit.SECONDS);
		this.engines.close();
	}

	@Test
	void aKeyFreedWhileTheMultiKeyWaitersAheadStillNeedABusyKeyGoesToTheSingleKeyWaiterWithoutAScriptLoop()
			throws Exception {
		DefaultLockService p0 = this.engines.engine(0);
		DefaultLockService p1 = this.engines.engine(1);
		LockHandle holderOfA = p0.tryAcquire("a", LockOptions.ofTtl(LONG)).orElseThrow();
		LockHandle holderOfB = p1.tryAcquire("b", LockOptions.ofTtl(LONG)).orElseThrow();
		try {
			CompletableFuture<Optional<LockHandle>> w1 = waitFor(p0, List.of("a", "b"), Duration.ofSeconds(20));
			awaitQueued("a", 1);
			awaitQueued("b", 1);
			CompletableFuture<Optional<LockHandle>> w2 = waitFor(p1, List.of("a", "b"), Duration.ofSeconds(20));
			awaitQueued("a", 2);
			awaitQueued("b", 2);
			CompletableFuture<Optional<LockHandle>> z = waitFor(p0, List.of("a"), Duration.ofSeconds(10));
			awaitQueued("a", 3);

			long scriptsBefore = scripts();
			long releasedAt = System.nanoTime();
			holderOfA.close();
			Optional<LockHandle> zGot = awaitAtMost(z, Duration.ofSeconds(1));
			long zWaitedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - releasedAt);
			// the measurement window: the second after the release, whatever Z's answer
			LockSupport.parkNanos(releasedAt + TimeUnit.SECONDS.toNanos(1) - System.nanoTime());
			long scriptsInTheSecond = scripts() - scriptsBefore;
			System.out.printf("livelock regression: Z %s after %d ms; %d scripts (EVAL/EVALSHA) in the second after"
					+ " releasing 'a'%n", (zGot != null && zGot.isPresent()) ? "got 'a'" : "did not get 'a'",
					zWaitedMillis, scriptsInTheSecond);

			SoftAssertions softly = new SoftAssertions();
			softly.assertThat(zGot != null && zGot.isPresent())
				.as("Z, the single-key waiter for 'a', granted within 1 s of the release of 'a' while both"
						+ " multi-key waiters ahead of it still need the busy 'b'")
				.isTrue();
			softly.assertThat(scriptsInTheSecond)
				.as("scripts run in the second after releasing 'a' (a loop of hand-ons runs thousands)")
				.isLessThanOrEqualTo(SCRIPTS_IN_THE_SECOND_AFTER_THE_RELEASE);
			holderOfB.close();
			// every waiter closes what it is granted at once, in whichever order the queue grants them
			CompletableFuture.allOf(closeWhenGranted(z), closeWhenGranted(w1), closeWhenGranted(w2))
				.get(30, TimeUnit.SECONDS);
			softly.assertAll();
		}
		finally {
			holderOfA.close();
			holderOfB.close();
		}
	}

	private CompletableFuture<Optional<LockHandle>> waitFor(DefaultLockService engine, List<String> keys,
			Duration wait) {
		return CompletableFuture.supplyAsync(() -> {
			try {
				return engine.tryAcquireAll(keys, LockOptions.ofTtl(LONG).withWaitTime(wait));
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return Optional.empty();
			}
		}, this.waiters);
	}

	private void awaitQueued(String key, int waiters) {
		await().atMost(Duration.ofSeconds(30))
			.alias(waiters + " waiter(s) in the queue of '" + key + "'")
			.until(() -> this.redis.command("LLEN", LockEngines.KEYS.queueKey(key)).equals(Integer.toString(waiters)));
	}

	private long scripts() {
		return this.redis.callsOf("evalsha", "eval");
	}

	private static Optional<LockHandle> awaitAtMost(CompletableFuture<Optional<LockHandle>> waiter, Duration limit)
			throws Exception {
		try {
			return waiter.get(limit.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (TimeoutException ex) {
			return null;
		}
	}

	private static CompletableFuture<Void> closeWhenGranted(CompletableFuture<Optional<LockHandle>> waiter) {
		return waiter.thenAccept((granted) -> granted.ifPresent(LockHandle::close));
	}

}
