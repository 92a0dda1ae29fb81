package dev.locksmith.redis;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.locksmith.actuate.LocksHealthIndicator;
import dev.locksmith.actuate.LostLeaseTracker;
import dev.locksmith.core.DefaultLockService;
import dev.locksmith.testing.RedisCluster;
import dev.locksmith.testing.RedisServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The {@code locks} health on a Redis Cluster shows the cluster as Locksmith's connection sees it. */
@Tag("slow")
class RedisClusterTopologyHealthTests {

	private static final RedisLockKeys KEYS = LockEngines.KEYS;

	private final List<AutoCloseable> resources = new ArrayList<>();

	private final RedisCluster cluster = RedisCluster.start();

	@AfterEach
	void close() throws Exception {
		for (AutoCloseable resource : this.resources) {
			resource.close();
		}
		this.cluster.close();
	}

	@Test
	void healthShowsTheMastersTheConnectionSeesAndWhenItsViewWasRefreshed() {
		LocksHealthIndicator health = healthOn(this.cluster.refreshingConnectionFactory(Duration.ofSeconds(1)));
		assertThat(topology(health)).containsEntry("masters", 3L)
			.containsEntry("replicas", 0L)
			.containsEntry("failed", 0L)
			.containsEntry("refresh", "adaptive, every 1s");
		Instant first = (Instant) topology(health).get("refreshedAt");

		RedisServer added = this.cluster.addMaster();
		int slot = this.cluster.slotOf(KEYS.lockKey("moved"));
		this.cluster.beginMigration(slot, added);
		this.cluster.finishMigration(slot, added);

		await().atMost(Duration.ofSeconds(10)).until(() -> topology(health).get("masters").equals(4L));
		assertThat((Instant) topology(health).get("refreshedAt")).isAfter(first);
	}

	@Test
	void healthSaysWhenTheConnectionNeverRefreshesItsView() {
		LocksHealthIndicator health = healthOn(this.cluster.connectionFactory());

		assertThat(topology(health)).containsEntry("masters", 3L).containsEntry("refresh", "never");
	}

	private LocksHealthIndicator healthOn(LettuceConnectionFactory connections) {
		RedisLockBackend backend = new RedisLockBackend(connections, KEYS);
		DefaultLockService locks = DefaultLockService.builder(backend).build();
		this.resources.add(0, connections::destroy);
		this.resources.add(0, backend);
		this.resources.add(0, locks);
		return new LocksHealthIndicator(locks, locks.administration(), new LostLeaseTracker(),
				false);
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> topology(LocksHealthIndicator health) {
		Map<String, Object> details = health.health().getDetails();
		assertThat(details).containsKey("topology");
		return (Map<String, Object>) details.get("topology");
	}

}
