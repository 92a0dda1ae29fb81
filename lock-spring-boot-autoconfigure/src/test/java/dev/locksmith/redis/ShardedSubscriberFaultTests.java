package dev.locksmith.redis;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.event.ClusterTopologyChangedEvent;
import io.lettuce.core.event.EventBus;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.locksmith.testing.RedisCluster;
import dev.locksmith.testing.RedisServer;
import dev.locksmith.testing.RedisVersion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Sharded pub/sub on a three-master cluster of the system's Redis 7, without replicas, while one master is
 * dead or frozen: the subscriber settles instead of reconnecting over and over, the channels of the healthy
 * masters are not held up by the silent one, and the channels of the silent one are retried one attempt at
 * a time, with a backoff. Each test gets a fresh cluster.
 */
@Tag("slow")
class ShardedSubscriberFaultTests {

	private static final RedisLockKeys KEYS = RedisFixture.KEYS;

	/** Keys of the silent master watched before one of a healthy master. */
	private static final int SILENT_KEYS = 10;

	/** Two answer timeouts: far less than the {@value #SILENT_KEYS} that waiting for each silent key takes. */
	private static final Duration UNHELD = Duration.ofSeconds(6);

	private static final Pattern CLUSTER_DOWN = Pattern.compile("errorstat_CLUSTERDOWN:count=(\\d+)");

	private RedisCluster cluster;

	@RegisterExtension
	final RedisFixture fixture = new RedisFixture(() -> this.cluster.connectionFactory(), true);

	@BeforeEach
	void startCluster() {
		this.cluster = RedisCluster.start(RedisVersion.SYSTEM);
	}

	@AfterEach
	void stopCluster() {
		this.cluster.close();
	}

	/**
	 * The master of the channel that opens the subscriber connection is dead: the subscriber subscribes the
	 * other channels and keeps its connection, where it used to open a new one every three seconds.
	 */
	@Test
	void aDeadMasterOfTheConnectionsChannelLeavesTheSubscriberConnectionAlone() throws Exception {
		RedisServer dead = this.cluster.nodeServing(KEYS.releaseChannel(""));
		String key = keysOf(otherMaster(dead)).findFirst().orElseThrow();
		RedisServer owner = this.cluster.nodeServing(KEYS.lockKey(key));
		dead.kill();

		ShardedWaiter waiter = ShardedWaiter.waitFor(key, this.fixture, this.fixture);
		await().atMost(ShardedWaiter.PROMPTLY).until(() -> ShardedWaiter.shardSubscribers(owner, key) == 1);
		Set<String> subscribers = shardSubscriberConnections(owner);

		await().during(Duration.ofSeconds(10)).atMost(Duration.ofSeconds(20))
			.alias("the same subscriber connection, not one anew every few seconds")
			.until(() -> shardSubscriberConnections(owner).equals(subscribers));
		waiter.releaseAndExpectTheWaiterWoken();
	}

	/** The waits for a frozen master's channels are not in the way of a healthy master's channel. */
	@Test
	void aFrozenMasterDoesNotHoldUpTheSubscriptionsOnTheOthers() {
		RedisReleaseNotifications notifications = startedNotifications(this.fixture.connect());
		RedisServer frozen = otherMaster(this.cluster.nodeServing(KEYS.releaseChannel("")));
		RedisServer healthy = otherMaster(frozen);
		String healthyKey = keysOf(healthy).findFirst().orElseThrow();
		List<String> frozenKeys = keysOf(frozen).limit(SILENT_KEYS).toList();
		frozen.pause();
		try {
			frozenKeys.forEach((key) -> notifications.watch(key, Duration.ZERO));
			notifications.watch(healthyKey, Duration.ZERO);

			await().atMost(UNHELD).alias("the healthy master's channel subscribed without waiting for the frozen one")
				.until(() -> ShardedWaiter.shardSubscribers(healthy, healthyKey) == 1);
		}
		finally {
			frozen.resume();
		}
	}

	/**
	 * A channel whose slot no master serves is tried again by one loop, whatever asks for it again (here,
	 * fifty topology changes at once), and with a backoff: its master gets a handful of attempts, not fifty a
	 * second.
	 */
	@Test
	void aChannelWhoseSlotNoMasterServesIsRetriedOneAttemptAtATimeWithABackoff() {
		LettuceConnectionFactory connections = this.fixture.connect();
		RedisReleaseNotifications notifications = startedNotifications(connections);
		RedisServer master = otherMaster(this.cluster.nodeServing(KEYS.releaseChannel("")));
		String key = keysOf(master).findFirst().orElseThrow();
		master.command("CLUSTER", "DELSLOTS", Integer.toString(this.cluster.slotOf(KEYS.lockKey(key))));

		notifications.watch(key, Duration.ZERO);
		EventBus events = ((RedisClusterClient) connections.getNativeClient()).getResources().eventBus();
		for (int i = 0; i < 50; i++) {
			events.publish(new ClusterTopologyChangedEvent(List.of(), List.of()));
		}

		await().during(Duration.ofSeconds(8)).atMost(Duration.ofSeconds(15))
			.alias("few attempts refused with CLUSTERDOWN on the slot's former master")
			.until(() -> refusedAsClusterDown(master) <= 8);
	}

	private RedisReleaseNotifications startedNotifications(LettuceConnectionFactory connections) {
		RedisReleaseNotifications notifications = RedisReleaseNotifications.started(connections, KEYS, true);
		this.fixture.closeWith(notifications::destroy);
		await().atMost(ShardedWaiter.PROMPTLY)
			.until(() -> ShardedWaiter.shardSubscribers(this.cluster.nodeServing(KEYS.releaseChannel("")), "") == 1);
		return notifications;
	}

	private RedisServer otherMaster(RedisServer master) {
		return this.cluster.masters().stream().filter((other) -> other.port() != master.port()).findFirst()
			.orElseThrow();
	}

	/** Keys whose locks {@code master} serves. */
	private Stream<String> keysOf(RedisServer master) {
		return IntStream.iterate(0, (i) -> i + 1).mapToObj((i) -> "key-" + i)
			.filter((key) -> this.cluster.nodeServing(KEYS.lockKey(key)).port() == master.port());
	}

	private static long refusedAsClusterDown(RedisServer node) {
		Matcher matcher = CLUSTER_DOWN.matcher(node.command("INFO", "errorstats"));
		return matcher.find() ? Long.parseLong(matcher.group(1)) : 0;
	}

	/** The ids of the clients subscribed to shard channels on {@code node}. */
	private static Set<String> shardSubscriberConnections(RedisServer node) {
		return node.command("CLIENT", "LIST").lines().filter((client) -> client.contains(" cmd=ssubscribe"))
			.map((client) -> client.split(" ")[0]).collect(Collectors.toSet());
	}

}
