package dev.locksmith.redis;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;

import dev.locksmith.core.DefaultLockService;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockUnavailableException;
import dev.locksmith.testing.RedisServer;
import dev.locksmith.testing.RedisServerExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.util.Throwables.getStackTrace;

/** Locking through Jedis, which has no asynchronous API: calls run on a bounded pool. */
class JedisLockBackendTests {

	@RegisterExtension
	static final RedisServerExtension redisServer = new RedisServerExtension();

	private static final LockOptions HOLD = LockOptions.ofTtl(Duration.ofSeconds(30));

	private RedisServer redis;

	private JedisConnectionFactory connections;

	private RedisLockBackend backend;

	private DefaultLockService locks;

	@BeforeEach
	void connect() {
		this.redis = redisServer.server();
		this.connections = new JedisConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1", this.redis.port()));
		this.connections.afterPropertiesSet();
		this.connections.start();
		this.backend = new RedisLockBackend(this.connections, new RedisLockKeys("lock:"));
		this.locks = DefaultLockService.builder(this.backend).storeTimeout(Duration.ofSeconds(5)).build();
	}

	@AfterEach
	void close() {
		this.locks.close();
		this.backend.close();
		this.connections.destroy();
	}

	@Test
	void aLockTakenThroughJedisExcludesOthersUntilReleased() throws Exception {
		LockHandle held = this.locks.tryAcquire("orders:1", HOLD).orElseThrow();
		assertThat(this.redis.command("EXISTS", "lock:{orders:1}")).isEqualTo("1");
		assertThat(this.locks.tryAcquire("orders:1", HOLD)).isEmpty();

		held.close();

		assertThat(this.redis.command("EXISTS", "lock:{orders:1}")).isEqualTo("0");
	}

	@Test
	void callsTimedOutAgainstAFrozenRedisUseAtMostTheBoundedPool() throws Exception {
		this.locks.tryAcquire("warm-up", HOLD).orElseThrow().close();
		ThreadMXBean threads = ManagementFactory.getThreadMXBean();
		int threadsBefore = threads.getThreadCount();
		this.redis.pause();
		try (DefaultLockService impatient = DefaultLockService.builder(this.backend)
			.storeTimeout(Duration.ofMillis(20))
			.build()) {
			for (int i = 0; i < 200; i++) {
				String key = "frozen:" + i;
				assertThatExceptionOfType(LockUnavailableException.class)
					.isThrownBy(() -> impatient.tryAcquire(key, HOLD));
			}
			assertThat(threads.getThreadCount() - threadsBefore)
				.as("live threads added by 200 timed-out calls: the bounded pool, and a couple of the JDK's")
				.isLessThanOrEqualTo(BlockingScriptRunner.THREADS + 2);
		}
		finally {
			this.redis.resume();
		}
	}

	@Test
	void aCallBeyondTheBoundedPoolAndItsQueueIsRefusedInsteadOfQueued() throws Exception {
		this.locks.tryAcquire("warm-up", HOLD).orElseThrow().close();
		int capacity = BlockingScriptRunner.THREADS + BlockingScriptRunner.QUEUED;
		this.redis.pause();
		try (DefaultLockService impatient = DefaultLockService.builder(this.backend)
			.storeTimeout(Duration.ofMillis(1))
			.build()) {
			Throwable refusal = null;
			for (int call = 0; call <= capacity && refusal == null; call++) {
				String key = "frozen:" + call;
				Throwable failure = catchThrowable(() -> impatient.tryAcquire(key, HOLD));
				assertThat(failure).isInstanceOf(LockUnavailableException.class);
				if (getStackTrace(failure).contains("Too many Redis calls in flight")) {
					refusal = failure;
				}
			}
			assertThat(refusal).as("a refusal within %d calls against a frozen Redis", capacity + 1).isNotNull();
		}
		finally {
			this.redis.resume();
		}
	}

}
