package dev.locksmith.autoconfigure;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockService;
import dev.locksmith.redis.TestLockKeys;
import dev.locksmith.testing.RedisCluster;
import dev.locksmith.testing.RedisServer;
import dev.locksmith.testing.RedisVersion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code locksmith.redis.sharded-pub-sub=true} on a Redis 7 cluster, through Spring Boot's own connection
 * factory: a waiter listens on its lock's shard channel ({@code SSUBSCRIBE}) on the master of its slot, on
 * no classic channel, and is woken by the release well before its re-check.
 */
@Tag("slow")
class ShardedPubSubPropertyTests {

	private static final Duration RECHECK = Duration.ofSeconds(30);

	/** Well under {@link #RECHECK}, and generous for a busy machine. */
	private static final Duration PROMPTLY = Duration.ofSeconds(10);

	private static final LockOptions OPTIONS = LockOptions.ofTtl(RECHECK);

	private static RedisCluster cluster;

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, LocksmithAutoConfiguration.class));

	@BeforeAll
	static void startCluster() {
		cluster = RedisCluster.start(RedisVersion.SYSTEM);
	}

	@AfterAll
	static void stopCluster() {
		if (cluster != null) {
			cluster.close();
		}
	}

	@Test
	void aWaiterListensOnItsLocksShardChannelAndIsWokenByTheRelease() {
		this.runner
			.withPropertyValues("spring.data.redis.cluster.nodes=" + clusterNodes(),
					"locksmith.redis.sharded-pub-sub=true", "locksmith.wait.recheck-interval=" + RECHECK.toSeconds() + "s",
					"locksmith.wait.claim-lease=" + RECHECK.multipliedBy(2).toSeconds() + "s")
			.run((context) -> {
				LockService locks = context.getBean(LockService.class);
				String channel = TestLockKeys.releaseChannel("k");
				RedisServer owner = cluster.nodeServing(TestLockKeys.lockKey("k"));
				LockHandle held = locks.tryAcquire("k", OPTIONS).orElseThrow();
				CompletableFuture<Optional<LockHandle>> waiting = CompletableFuture.supplyAsync(() -> {
					try {
						return locks.tryAcquire("k", OPTIONS.withWaitTime(RECHECK));
					}
					catch (InterruptedException ex) {
						throw new IllegalStateException(ex);
					}
				});

				await().atMost(PROMPTLY).alias("the waiter's shard channel on the master of its slot")
					.until(() -> owner.command("PUBSUB", "SHARDCHANNELS", channel).contains(channel));
				for (RedisServer node : cluster.nodes()) {
					assertThat(node.command("PUBSUB", "CHANNELS", channel)).as("classic channels on %s", node.port())
						.doesNotContain(channel);
				}
				held.close();
				assertThat(waiting.get(PROMPTLY.toMillis(), TimeUnit.MILLISECONDS))
					.as("woken by the notice, well before its re-check").isPresent();
			});
	}

	private static String clusterNodes() {
		return cluster.nodes().stream().map((node) -> "127.0.0.1:" + node.port()).collect(Collectors.joining(","));
	}

}
