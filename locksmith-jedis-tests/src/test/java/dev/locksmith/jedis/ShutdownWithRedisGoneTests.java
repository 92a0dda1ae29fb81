package dev.locksmith.jedis;

import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;

import dev.locksmith.core.DefaultLockService;
import dev.locksmith.core.LockOptions;
import dev.locksmith.redis.RedisLockStore;
import dev.locksmith.testing.RedisServer;
import dev.locksmith.testing.WorkerJvm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** A worker JVM on Jedis, subscribed for a lock's release, exits on SIGTERM after Redis has gone away. */
class ShutdownWithRedisGoneTests {

	private static final String RELEASE_CHANNEL = "lock:released:{" + WaiterWorker.LOCK + "}";

	/** Spring Boot's default graceful-shutdown period, within which a container runtime waits before SIGKILL. */
	private static final Duration SHUTDOWN_BOUND = Duration.ofSeconds(30);

	private RedisServer redis;

	private JedisConnectionFactory connections;

	private RedisLockStore store;

	private DefaultLockService holder;

	@BeforeEach
	void holdTheLock() throws Exception {
		this.redis = RedisServer.start();
		this.connections = JedisConnections.started(this.redis.port());
		this.store = RedisLockStore.builder(this.connections).build();
		this.holder = DefaultLockService.builder(this.store).build();
		this.holder.acquire(WaiterWorker.LOCK, LockOptions.ofTtl(Duration.ofMinutes(5)));
	}

	@AfterEach
	void stop() {
		this.holder.close();
		this.store.close();
		this.connections.destroy();
		this.redis.close();
	}

	@Test
	void aWaitingWorkerExitsOnSigtermWithRedisGone() throws Exception {
		try (WorkerJvm worker = WorkerJvm.start(WaiterWorker.class, Integer.toString(this.redis.port()))) {
			await().atMost(Duration.ofSeconds(90))
				.until(() -> !worker.isAlive() || this.redis.subscribers(RELEASE_CHANNEL) > 0);
			assertThat(worker.isAlive()).as("worker waiting; its output:%n%s", worker.output()).isTrue();
			this.redis.stop();
			await().atMost(Duration.ofSeconds(60)).until(() -> refusedSubscriptions(worker) >= 2);

			worker.terminate();

			assertThat(worker.awaitExit(SHUTDOWN_BOUND))
				.as("worker exited within %s of SIGTERM; its output:%n%s", SHUTDOWN_BOUND, worker.output())
				.isTrue();
		}
	}

	/**
	 * How often the worker's listener container has logged a refused connection as it restarts its
	 * subscription: from the second on, it retries within its own recovery, holding its subscriber's lock,
	 * on which stopping it then waits for as long as Redis stays away.
	 */
	private static int refusedSubscriptions(WorkerJvm worker) {
		return worker.output().split("Cannot get Jedis connection; Restarting subscription", -1).length - 1;
	}

}
