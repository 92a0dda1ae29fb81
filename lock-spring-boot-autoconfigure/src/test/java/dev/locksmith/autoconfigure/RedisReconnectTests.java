package dev.locksmith.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.locksmith.core.LockAdministration;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockService;
import dev.locksmith.core.LockUnavailableException;
import dev.locksmith.testing.RedisServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * How soon locking resumes once Redis answers again after a long outage, as an application configured by
 * Spring Boot gets it: on the Redis store, and on Redlock, where a server back from the outage must count
 * again toward the quorum. One outage serves both stores, to keep the run short; each recovery is printed,
 * and the README quotes it.
 * <p>
 * Lettuce alone doubles its pause between reconnect attempts from 1ms up to 30 s: its attempts fall about
 * 16.4 s and 32.8 s into the outage, so after the default outage of 20 s it would wait about 12.8 s more
 * (about 23 s after 40 s). Set another outage with {@code -Dlocksmith.outage=PT40S}.
 */
@Tag("slow")
class RedisReconnectTests {

	static final Duration OUTAGE = Duration.parse(System.getProperty("locksmith.outage", "PT20S"));

	/**
	 * A generous bound on the recovery: at most the capped reconnect delay, 1 s, then a lock call, which
	 * takes well under a second on an idle machine; the rest is allowance for a loaded one.
	 */
	static final Duration PROMPT = Duration.ofSeconds(5);

	private static final LockOptions LONG = LockOptions.ofTtl(Duration.ofSeconds(30));

	private final List<RedisServer> servers = new ArrayList<>();

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, LocksmithAutoConfiguration.class));

	@AfterEach
	void stopServers() {
		this.servers.forEach(RedisServer::close);
	}

	@Test
	void lockingResumesPromptlyOnTheRedisStoreAndARedlockServerCountsAgainPromptlyAfterALongOutage() {
		RedisServer redis = start();
		List<RedisServer> nodes = List.of(start(), start(), start());
		this.runner.withPropertyValues("spring.data.redis.port=" + redis.port()).run((redisContext) -> {
			this.runner.withPropertyValues("locksmith.store=redlock", "locksmith.redlock.nodes=" + String.join(",",
					nodes.stream().map((node) -> "redis://127.0.0.1:" + node.port()).toList()))
				.run((redlockContext) -> {
					LockService onRedis = redisContext.getBean(LockService.class);
					LockService onRedlock = redlockContext.getBean(LockService.class);
					LockAdministration health = redisContext.getBean(LockAdministration.class);
					health.ping();
					onRedis.acquire("warm-up", LONG).close();
					onRedlock.acquire("warm-up", LONG).close();

					redis.stop();
					nodes.get(0).stop();
					// the outage lasts OUTAGE, and the store is seen down all along it
					await("the outage, seen by the health ping").pollDelay(OUTAGE)
						.atMost(OUTAGE.plusSeconds(30))
						.until(() -> !pings(health));
					redis.restart();
					nodes.get(0).restart();
					long restarted = System.nanoTime();
					nodes.get(1).stop();   // so that no lock is granted without the restarted server

					Duration[] recovery = new Duration[3];
					await("locking and health back").atMost(Duration.ofSeconds(60))
						.pollInterval(Duration.ofMillis(50))
						.until(() -> {
							recordRecovery(recovery, 0, restarted, () -> locks(onRedis));
							recordRecovery(recovery, 1, restarted, () -> locks(onRedlock));
							recordRecovery(recovery, 2, restarted, () -> pings(health));
							return !Arrays.asList(recovery).contains(null);
						});

					System.out.printf("After a %d s outage, the first lock %s on the Redis store (health ping %s) "
							+ "and %s on Redlock (with the restarted server and without another) after Redis "
							+ "answered again%n", OUTAGE.toSeconds(), millis(recovery[0]), millis(recovery[2]),
							millis(recovery[1]));
					assertThat(recovery[0]).as("time from Redis answering again to the first lock on the Redis store")
						.isNotNull()
						.isLessThan(PROMPT);
					assertThat(recovery[2]).as("time from Redis answering again to the first health ping answered")
						.isNotNull()
						.isLessThan(PROMPT);
					assertThat(recovery[1]).as("time from the restart to the first lock granted by Redlock servers 0 and 2")
						.isNotNull()
						.isLessThan(PROMPT);
					assertThat(nodes.get(0).command("EXISTS", "lock:{job}")).as("the lock on the restarted server")
						.isEqualTo("1");
				});
		});
	}

	private RedisServer start() {
		RedisServer server = RedisServer.start();
		this.servers.add(server);
		return server;
	}

	private static void recordRecovery(Duration[] recovery, int store, long restarted, Callable<Boolean> locks)
			throws Exception {
		if (recovery[store] == null && locks.call()) {
			recovery[store] = Duration.ofNanos(System.nanoTime() - restarted);
		}
	}

	/** Whether a lock is granted (and kept), failing closed while the store cannot be reached. */
	private static boolean locks(LockService locks) throws InterruptedException {
		try {
			return locks.tryAcquire("job", LONG).isPresent();
		}
		catch (LockUnavailableException ex) {
			return false;
		}
	}

	/** Whether the store answers the health's ping. */
	private static boolean pings(LockAdministration administration) {
		try {
			administration.ping();
			return true;
		}
		catch (LockUnavailableException ex) {
			return false;
		}
	}

	private static String millis(Duration duration) {
		return (duration != null) ? duration.toMillis() + " ms" : "never";
	}

}
