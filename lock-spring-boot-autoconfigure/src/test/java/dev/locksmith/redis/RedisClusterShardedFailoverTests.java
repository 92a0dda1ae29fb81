package dev.locksmith.redis;

import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.locksmith.testing.RedisCluster;
import dev.locksmith.testing.RedisServer;
import dev.locksmith.testing.RedisVersion;

import static org.awaitility.Awaitility.await;

/**
 * Sharded pub/sub while the master of a waited-for lock fails over, on a cluster of the system's Redis 7
 * with a replica per master: the waiter, whose connections never refresh their view of the cluster and
 * who re-checks only every {@link ShardedWaiter#RECHECK}, ends up subscribed on the new master alone and is
 * woken by the release's notice. The holder's connections refresh their view, so that its release reaches
 * the new master. Each test gets a fresh cluster.
 */
@Tag("slow")
class RedisClusterShardedFailoverTests {

	private static final RedisLockKeys KEYS = RedisFixture.KEYS;

	private RedisCluster cluster;

	@RegisterExtension
	final RedisFixture waiters = new RedisFixture(() -> this.cluster.connectionFactory(), true);

	@RegisterExtension
	final RedisFixture holders = new RedisFixture(
			() -> this.cluster.refreshingConnectionFactory(Duration.ofSeconds(1)), true);

	@BeforeEach
	void startCluster() {
		this.cluster = RedisCluster.startWithReplicas(RedisVersion.SYSTEM);
	}

	@AfterEach
	void stopCluster() {
		this.cluster.close();
	}

	/**
	 * {@code CLUSTER FAILOVER} on the replica: the demoted master drops the channel, and the subscription
	 * goes to the new master, not back to the demoted one (which, as a replica, would still take it).
	 */
	@Test
	void aWaiterIsWokenAfterItsLocksMasterFailedOverAndKeepsNoSubscriptionOnTheDemotedOne() throws Exception {
		ShardedWaiter waiter = ShardedWaiter.waitFor("k", this.holders, this.waiters);
		RedisServer master = this.cluster.nodeServing(KEYS.lockKey("k"));

		RedisServer promoted = this.cluster.failover(master);

		await().atMost(ShardedWaiter.PROMPTLY).alias("subscribed on the new master, and no more on the demoted one")
			.until(() -> ShardedWaiter.shardSubscribers(promoted, "k") == 1
					&& ShardedWaiter.shardSubscribers(master, "k") == 0);
		waiter.releaseAndExpectTheWaiterWoken();
	}

	/** {@code kill -9} of the master: no {@code SUNSUBSCRIBE} comes, the lost connection tells. */
	@Test
	void aWaiterIsWokenAfterItsLocksMasterWasKilled() throws Exception {
		ShardedWaiter waiter = ShardedWaiter.waitFor("k", this.holders, this.waiters);
		RedisServer master = this.cluster.nodeServing(KEYS.lockKey("k"));
		RedisServer replica = this.cluster.replicaOf(master);

		this.cluster.kill(master);

		await().atMost(ShardedWaiter.PROMPTLY).alias("subscribed on the elected replica")
			.until(() -> ShardedWaiter.shardSubscribers(replica, "k") == 1);
		waiter.releaseAndExpectTheWaiterWoken();
	}

}
