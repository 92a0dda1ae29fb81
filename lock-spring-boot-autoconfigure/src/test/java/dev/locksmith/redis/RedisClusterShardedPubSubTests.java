package dev.locksmith.redis;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.script.RedisScript;

import dev.locksmith.testing.RedisCluster;
import dev.locksmith.testing.RedisServer;
import dev.locksmith.testing.RedisVersion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Release notifications on a three-master cluster of the system's Redis 7, which has sharded pub/sub: a
 * hand-over is published within the shard of its lock's slot instead of over the cluster bus to every
 * node, and waiters on other connections are still woken by it, also after the slot moved to another
 * master. Each node's {@code CLUSTER INFO} counts the publishes it received over the bus.
 */
@Tag("slow")
class RedisClusterShardedPubSubTests {

	private static final RedisLockKeys KEYS = RedisFixture.KEYS;

	private static final Duration LONG = ShardedWaiter.LONG;

	private static final Duration PROMPTLY = ShardedWaiter.PROMPTLY;

	private static final int HAND_OVERS = 20;

	private static final Pattern BUS_PUBLISHES = Pattern
		.compile("cluster_stats_messages_(publish|publishshard)_received:(\\d+)");

	private static RedisCluster cluster;

	@RegisterExtension
	final RedisFixture fixture = new RedisFixture(() -> cluster.connectionFactory(), true);

	/** Connections as {@link LocksmithAcl#USER}. */
	@RegisterExtension
	final RedisFixture asUser = new RedisFixture(RedisClusterShardedPubSubTests::connectAsUser, true);

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

	@BeforeEach
	void empty() {
		cluster.nodes().forEach((node) -> node.command("FLUSHALL"));
	}

	/**
	 * The same hand-overs, published with {@code PUBLISH} (as before sharded pub/sub, and still on Redis 6.2)
	 * and with {@code SPUBLISH}: the first reach every node, the owner and the other two over the bus; the
	 * second the owner alone, which publishes them itself.
	 */
	@Test
	void aHandOverIsPublishedWithinItsShardOnly() {
		ScriptRunner runner = this.fixture.closeWith(LettuceScriptRunner.forFactory(this.fixture.connect()));
		RedisServer owner = cluster.nodeServing(KEYS.lockKey("k"));
		List<RedisServer> masters = cluster.masters();
		List<Long> publishedBefore = masters.stream().map((master) -> master.callsOf("spublish")).toList();

		double sharded = nodesReachedPerHandOver(runner, true);
		double classic = nodesReachedPerHandOver(runner, false);

		System.err.println("[sharded-pub/sub] nodes reached per hand-over on a 3-master Redis "
				+ RedisVersion.SYSTEM.version() + " cluster: PUBLISH " + classic + ", SPUBLISH " + sharded);
		assertThat(classic).as("PUBLISH reaches every node").isEqualTo(3.0);
		assertThat(sharded).as("SPUBLISH stays on the shard of the lock's slot").isEqualTo(1.0);
		for (int i = 0; i < masters.size(); i++) {
			assertThat(masters.get(i).callsOf("spublish") - publishedBefore.get(i))
				.as("SPUBLISH calls on master %d, %s", masters.get(i).port(),
						(masters.get(i).port() == owner.port()) ? "the owner" : "another")
				.isEqualTo((masters.get(i).port() == owner.port()) ? HAND_OVERS : 0);
		}
	}

	@Test
	void aWaiterOnAnotherConnectionIsWokenBySubscribingToItsShardChannel() throws Exception {
		ShardedWaiter waiter = ShardedWaiter.waitFor("k", this.fixture, this.fixture);
		RedisServer owner = cluster.nodeServing(KEYS.lockKey("k"));

		assertThat(shardSubscribers(owner, "k")).as("the waiter listens on the shard channel").isEqualTo(1);
		for (RedisServer node : cluster.nodes()) {
			assertThat(node.subscribers(KEYS.releaseChannel("k"))).as("nobody listens on the classic channel").isZero();
		}
		waiter.releaseAndExpectTheWaiterWoken();
	}

	/**
	 * A user of the ACL documented for Redis 6.2 (and what Lettuce asks of a cluster), without the sharded
	 * commands: its releases publish classically, and its waiters subscribe classically.
	 */
	@Test
	void aUserWithoutShardedPubSubCommandsKeepsClassicNotifications() throws Exception {
		for (RedisServer node : cluster.nodes()) {
			LocksmithAcl.createUser(node, LocksmithAcl.rules(KEYS, "+cluster|nodes", "+cluster|myid"));
		}
		ShardedWaiter waiter = ShardedWaiter.waitFor("k", this.asUser, this.asUser);

		assertThat(shardSubscribers(cluster.nodeServing(KEYS.lockKey("k")), "k")).isZero();
		assertThat(cluster.nodes().stream().mapToInt((node) -> node.subscribers(KEYS.releaseChannel("k"))).sum())
			.as("the waiter listens on the classic channel").isEqualTo(1);
		waiter.releaseAndExpectTheWaiterWoken();
	}

	@Test
	void aWaiterIsWokenAfterItsLocksSlotMovedToAnotherMaster() throws Exception {
		ShardedWaiter waiter = ShardedWaiter.waitFor("k", this.fixture, this.fixture);
		RedisServer source = cluster.nodeServing(KEYS.lockKey("k"));
		RedisServer target = otherMasterThan(source);
		int slot = cluster.slotOf(KEYS.lockKey("k"));

		cluster.beginMigration(slot, target);
		cluster.finishMigration(slot, target);

		awaitSubscribedOnlyOn(target, source, "k");
		waiter.releaseAndExpectTheWaiterWoken();
	}

	/**
	 * A key watched while its slot is migrating (its {@code ASK} window, in which the source still answers
	 * {@code SSUBSCRIBE}) ends up subscribed on the target once the slot moved there, and hears a hand-over
	 * published there.
	 */
	@Test
	void aKeyWatchedDuringItsSlotsMigrationHearsItsHandOversFromTheSlotsNewMaster() {
		RedisReleaseNotifications notifications = RedisReleaseNotifications.started(this.fixture.connect(), KEYS, true);
		this.fixture.closeWith(notifications::destroy);
		BlockingQueue<String> handedOver = new LinkedBlockingQueue<>();
		notifications.listen((key, owner, claimLease, fencingToken) -> handedOver.add(key + " to " + owner));
		RedisServer source = cluster.nodeServing(KEYS.lockKey("k"));
		RedisServer target = otherMasterThan(source);
		int slot = cluster.slotOf(KEYS.lockKey("k"));
		cluster.beginMigration(slot, target);
		try {
			notifications.watch("k", PROMPTLY);
			await().atMost(PROMPTLY).until(() -> shardSubscribers(source, "k") + shardSubscribers(target, "k") == 1);
		}
		finally {
			cluster.finishMigration(slot, target);
		}

		awaitSubscribedOnlyOn(target, source, "k");
		target.command("SPUBLISH", KEYS.releaseChannel("k"), "2000:7:waiter");
		await().atMost(PROMPTLY).until(() -> "k to waiter".equals(handedOver.poll()));
	}

	private static RedisServer otherMasterThan(RedisServer master) {
		return cluster.masters().stream().filter((other) -> other.port() != master.port()).findFirst().orElseThrow();
	}

	private static void awaitSubscribedOnlyOn(RedisServer owner, RedisServer before, String key) {
		await().atMost(PROMPTLY).alias("the waiter subscribed again on the slot's new master, and only there")
			.until(() -> shardSubscribers(owner, key) == 1 && shardSubscribers(before, key) == 0);
	}

	/**
	 * Hands {@code k} over {@link #HAND_OVERS} times, publishing with {@code SPUBLISH} or {@code PUBLISH},
	 * and counts the nodes each hand-over reached: its slot's master, and those that received it over the bus.
	 */
	private static double nodesReachedPerHandOver(ScriptRunner runner, boolean shardChannels) {
		ScriptArguments arguments = new ScriptArguments(KEYS, Duration.ofSeconds(2), shardChannels);
		List<String> keys = List.of("k");
		long receivedBefore = busPublishesReceived();
		for (int i = 0; i < HAND_OVERS; i++) {
			run(runner, LockScripts.ACQUIRE, arguments.acquire(keys, "a", LONG, LONG));
			run(runner, LockScripts.ACQUIRE, arguments.acquire(keys, "b", LONG, LONG));
			run(runner, LockScripts.RELEASE, arguments.release(keys, "a", 0));
			run(runner, LockScripts.RELEASE, arguments.release(keys, "b", 0));
		}
		long expected = shardChannels ? 0 : 2L * HAND_OVERS;
		await().atMost(PROMPTLY).until(() -> busPublishesReceived() - receivedBefore >= expected);
		return 1 + (double) (busPublishesReceived() - receivedBefore) / HAND_OVERS;
	}

	private static void run(ScriptRunner runner, RedisScript<?> script, ScriptArguments.Call call) {
		runner.run(script, call).join();
	}

	/** The publishes, classic and sharded, that every node received over the cluster bus so far. */
	private static long busPublishesReceived() {
		long received = 0;
		for (RedisServer node : cluster.nodes()) {
			Matcher matcher = BUS_PUBLISHES.matcher(node.command("CLUSTER", "INFO"));
			while (matcher.find()) {
				received += Long.parseLong(matcher.group(2));
			}
		}
		return received;
	}

	private static int shardSubscribers(RedisServer node, String key) {
		return ShardedWaiter.shardSubscribers(node, key);
	}


	private static LettuceConnectionFactory connectAsUser() {
		RedisClusterConfiguration configuration = new RedisClusterConfiguration(
				cluster.nodes().stream().map((node) -> "127.0.0.1:" + node.port()).toList());
		configuration.setUsername(LocksmithAcl.USER);
		configuration.setPassword(LocksmithAcl.PASSWORD);
		LettuceConnectionFactory factory = new LettuceConnectionFactory(configuration);
		factory.afterPropertiesSet();
		factory.start();
		return factory;
	}


}
