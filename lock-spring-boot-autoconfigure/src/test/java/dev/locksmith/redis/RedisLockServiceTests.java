package dev.locksmith.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.locksmith.core.DefaultLockService;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockUnavailableException;
import dev.locksmith.testing.CommandMonitor;
import dev.locksmith.testing.RedisServer;
import dev.locksmith.testing.RedisServerExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/** The lock contract and the Redis-specific guarantees, against a real {@code redis-server}. */
class RedisLockServiceTests extends RedisLockServiceContractTests {

	@RegisterExtension
	static final RedisServerExtension redisServer = new RedisServerExtension();

	private static RedisServer redis;

	@BeforeAll
	static void findRedis() {
		redis = redisServer.server();
	}

	@Override
	protected LettuceConnectionFactory connect() {
		return redis.connectionFactory();
	}

	@Test
	void uncontendedAcquireAndReleaseTakeOneRoundTripEach() throws Exception {
		warmUpScripts();
		try (CommandMonitor monitor = redis.monitor()) {
			LockHandle handle = this.locks.tryAcquire("orders:1", LockOptions.ofTtl(LONG)).orElseThrow();
			assertThat(monitor.clientCommands()).containsExactly("EVALSHA");
			handle.close();
			assertThat(monitor.clientCommands()).containsExactly("EVALSHA", "EVALSHA");
		}
	}

	@Test
	void severalKeysAreAcquiredAndReleasedInOneRoundTripEach() throws Exception {
		warmUpScripts();
		try (CommandMonitor monitor = redis.monitor()) {
			LockHandle handle = this.locks.tryAcquireAll(List.of("a", "b", "c"), LockOptions.ofTtl(LONG)).orElseThrow();
			handle.close();
			assertThat(monitor.clientCommands()).containsExactly("EVALSHA", "EVALSHA");
		}
	}

	@Test
	void aWaiterIsWokenByTheReleaseNotificationNotByPolling() throws Exception {
		DefaultLockService waiting = newService(newServiceBuilder().recheckInterval(Duration.ofMinutes(5)));
		warmUpScripts();
		LockHandle holder = this.locks.tryAcquire("job", LockOptions.ofTtl(LONG)).orElseThrow();
		redis.resetStats();
		CompletableFuture<Optional<LockHandle>> waiter = CompletableFuture.supplyAsync(() -> {
			try {
				return waiting.tryAcquire("job", LockOptions.ofTtl(LONG).withWaitTime(Duration.ofMinutes(1)));
			}
			catch (InterruptedException ex) {
				throw new IllegalStateException(ex);
			}
		});
		await().until(() -> redis.callsOf("evalsha") == 1);
		holder.close();

		assertThat(waiter.get(30, TimeUnit.SECONDS)).isPresent();
		assertThat(redis.callsOf("evalsha")).as("first try, release, try after the notification").isEqualTo(3);
	}

	@Test
	void allWaitersOfAProcessShareOneSubscriberConnection() throws Exception {
		DefaultLockService other = newService();
		List<LockHandle> holders = new ArrayList<>();
		for (int key = 0; key < 4; key++) {
			holders.add(this.locks.tryAcquire("job:" + key, LockOptions.ofTtl(LONG)).orElseThrow());
		}
		redis.resetStats();
		List<Thread> waiters = new ArrayList<>();
		for (int i = 0; i < 12; i++) {
			String key = "job:" + (i % 4);
			Thread waiter = new Thread(() -> {
				try {
					other.acquire(key, LockOptions.ofTtl(LONG).withWaitTime(LONG)).close();
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			});
			waiter.start();
			waiters.add(waiter);
		}
		await().until(() -> redis.callsOf("evalsha") >= 4
				&& waiters.stream().allMatch((waiter) -> waiter.getState() == Thread.State.TIMED_WAITING));

		assertThat(redis.command("PUBSUB", "NUMSUB", KEYS.releaseChannel()))
			.as("one subscriber for each of the two services, none per waiting thread")
			.isEqualTo(KEYS.releaseChannel() + "\n2");
		holders.forEach(LockHandle::close);
		for (Thread waiter : waiters) {
			waiter.join(TimeUnit.SECONDS.toMillis(30));
			assertThat(waiter.isAlive()).as("every waiter was handed its lock in turn").isFalse();
		}
	}

	@Test
	void pollingWaitersGetTheLockWithoutNotifications() throws Exception {
		LockHandle holder = this.locks.tryAcquire("job", LockOptions.ofTtl(LONG)).orElseThrow();
		DefaultLockService polling = newService(newServiceBuilder().releaseNotifications(null)
			.recheckInterval(Duration.ofMillis(50)));
		redis.resetStats();
		CompletableFuture<Optional<LockHandle>> waiter = CompletableFuture.supplyAsync(() -> {
			try {
				return polling.tryAcquire("job", LockOptions.ofTtl(LONG).withWaitTime(LONG));
			}
			catch (InterruptedException ex) {
				throw new IllegalStateException(ex);
			}
		});
		await().until(() -> redis.callsOf("evalsha") >= 3);
		assertThat(waiter).as("still waiting after polling three times").isNotDone();
		holder.close();

		assertThat(waiter.get(30, TimeUnit.SECONDS)).isPresent();
	}

	@Test
	void fencingTokensKeepIncreasingAfterTheServerRestartsEmpty() throws Exception {
		long before;
		try (LockHandle handle = this.locks.tryAcquire("account:7", LockOptions.ofTtl(LONG)).orElseThrow()) {
			before = handle.fencingToken();
		}
		redis.command("FLUSHALL");
		redis.restart();

		LockHandle after = await().atMost(Duration.ofSeconds(10))
			.ignoreException(LockUnavailableException.class)
			.until(() -> this.locks.tryAcquire("account:7", LockOptions.ofTtl(LONG)), Optional::isPresent)
			.orElseThrow();
		assertThat(after.fencingToken()).isGreaterThan(before);
	}

	@Test
	void scriptFlushBetweenCallsDoesNotFail() throws Exception {
		LockHandle first = this.locks.tryAcquire("job", LockOptions.ofTtl(LONG)).orElseThrow();
		redis.command("SCRIPT", "FLUSH");
		assertThat(first.extend(LONG)).isTrue();
		redis.command("SCRIPT", "FLUSH");
		first.close();
		redis.command("SCRIPT", "FLUSH");

		assertThat(this.locks.tryAcquire("job", LockOptions.ofTtl(LONG))).isPresent();
	}

	@Test
	void aCrashedRedisGivesLockUnavailableAndLockingRecoversWhenItReturns() throws Exception {
		this.locks.tryAcquire("warm-up", LockOptions.ofTtl(LONG)).orElseThrow();
		redis.kill();
		try {
			assertThatExceptionOfType(LockUnavailableException.class)
				.isThrownBy(() -> this.locks.tryAcquire("job", LockOptions.ofTtl(LONG)))
				.withMessageContaining("'job'");
		}
		finally {
			redis.restart();
		}
		await().atMost(Duration.ofSeconds(30))
			.ignoreException(LockUnavailableException.class)
			.until(() -> this.locks.tryAcquire("job", LockOptions.ofTtl(LONG)).isPresent());
		await().atMost(Duration.ofSeconds(30))
			.untilAsserted(() -> assertThat(redis.command("PUBSUB", "NUMSUB", KEYS.releaseChannel()))
				.as("release notifications subscribed again").isEqualTo(KEYS.releaseChannel() + "\n1"));
	}

	@Test
	void aRedisThatStopsAnsweringGivesLockUnavailableInsteadOfAHang() throws Exception {
		this.locks.tryAcquire("warm-up", LockOptions.ofTtl(LONG)).orElseThrow();
		redis.pause();
		try {
			long started = System.nanoTime();
			assertThatExceptionOfType(LockUnavailableException.class)
				.isThrownBy(() -> this.locks.tryAcquire("job", LockOptions.ofTtl(LONG)))
				.withMessageContaining("within " + REDIS_TIMEOUT.toMillis() + "ms");
			assertThat(Duration.ofNanos(System.nanoTime() - started)).as("bounded by the timeout, not the client's")
				.isLessThan(Duration.ofSeconds(10));
		}
		finally {
			redis.resume();
		}
	}

	@ParameterizedTest
	@NullAndEmptySource
	@ValueSource(strings = { " ", "\t" })
	void aBlankKeyIsRejectedBeforeAnythingIsSent(String key) {
		redis.resetStats();

		assertThatExceptionOfType(IllegalArgumentException.class)
			.isThrownBy(() -> this.locks.tryAcquire(key, LockOptions.ofTtl(LONG)))
			.withMessageStartingWith("key must not be null or blank");
		assertThat(redis.commandCalls()).isEmpty();
	}

	@ParameterizedTest
	@ValueSource(strings = { "PT0S", "PT-1S", "PT0.0001S" })
	void aTtlBelowOneMillisecondIsRejected(Duration ttl) {
		assertThatExceptionOfType(IllegalArgumentException.class).isThrownBy(() -> LockOptions.ofTtl(ttl))
			.withMessageStartingWith("ttl must be at least 1ms");
	}

	@Test
	void aNegativeWaitTimeIsRejected() {
		assertThatExceptionOfType(IllegalArgumentException.class)
			.isThrownBy(() -> LockOptions.ofTtl(LONG).withWaitTime(Duration.ofMillis(-1)))
			.withMessageStartingWith("waitTime must not be negative");
	}

	private void warmUpScripts() throws Exception {
		try (LockHandle handle = this.locks.tryAcquire("warm-up", LockOptions.ofTtl(LONG)).orElseThrow()) {
			handle.extend(LONG);
		}
	}

}
