package dev.locksmith.redis;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.locksmith.core.DefaultLockService;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockOptions;
import dev.locksmith.testing.RedisCluster;
import dev.locksmith.testing.RedisVersion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Sharded pub/sub asked for on a cluster of Redis 6.2, which does not know {@code SSUBSCRIBE}: the
 * notifications fall back to classic channels, for a key watched before the fallback too, and a waiter
 * with a long re-check is still woken by the release.
 */
@Tag("slow")
class ShardedPubSubOnRedis62Tests {

	private static final Duration LONG = Duration.ofSeconds(30);

	private static RedisCluster cluster;

	@RegisterExtension
	final RedisFixture fixture = new RedisFixture(() -> cluster.connectionFactory(), true);

	@BeforeAll
	static void startCluster() {
		cluster = RedisCluster.start(RedisVersion.BUNDLED);
	}

	@AfterAll
	static void stopCluster() {
		if (cluster != null) {
			cluster.close();
		}
	}

	@Test
	void aWaiterIsWokenByAClassicNotification() throws Exception {
		DefaultLockService holder = this.fixture.service();
		DefaultLockService waiter = this.fixture.service(this.fixture.serviceBuilder(LONG.multipliedBy(2)).recheckInterval(LONG));
		LockHandle held = holder.tryAcquire("k", LockOptions.ofTtl(LONG)).orElseThrow();
		CompletableFuture<Optional<LockHandle>> waiting = CompletableFuture.supplyAsync(() -> {
			try {
				return waiter.tryAcquire("k", LockOptions.ofTtl(LONG).withWaitTime(LONG));
			}
			catch (InterruptedException ex) {
				throw new IllegalStateException(ex);
			}
		});
		String channel = RedisFixture.KEYS.releaseChannel("k");
		await()
			.atMost(Duration.ofSeconds(10))
			.until(() -> cluster.nodes().stream().mapToInt((node) -> node.subscribers(channel)).sum() == 1);
		held.close();

		assertThat(waiting.get(10, TimeUnit.SECONDS)).as("woken well before its 30 s re-check").isPresent();
	}

}
