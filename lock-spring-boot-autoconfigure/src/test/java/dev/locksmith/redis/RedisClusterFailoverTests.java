package dev.locksmith.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import dev.locksmith.core.DefaultLockService;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockOptions;
import dev.locksmith.redis.ReliabilityReport.Outcome;
import dev.locksmith.testing.RedisCluster;
import dev.locksmith.testing.RedisServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The fenced workload on a Redis Cluster while its masters change: a master failed over to its replica
 * ({@code CLUSTER FAILOVER}), a master killed ({@code kill -9}) until its replica is elected, and a master
 * added with the slots rebalanced onto it. The lock services' connections refresh their topology as the
 * README tells users to configure them. Each test gets a fresh cluster.
 */
@Tag("slow")
class RedisClusterFailoverTests {

	private static final RedisLockKeys KEYS = LockEngines.KEYS;

	/** The store timeout of {@link LockEngines}. */
	private static final Duration REDIS_TIMEOUT = Duration.ofSeconds(2);

	/** {@code spring.data.redis.lettuce.cluster.refresh.period} of the lock services' connections. */
	private static final Duration REFRESH_PERIOD = Duration.ofSeconds(5);

	/**
	 * The longest a replica takes to be elected once the others agree that its master failed: its delay
	 * (500 ms, a random 0-500 ms, and 1 s per better-placed replica, none here) and the vote.
	 */
	private static final Duration ELECTION = Duration.ofSeconds(2);

	private static final LockOptions OPTIONS = LockOptions.ofTtl(Duration.ofSeconds(2))
		.withWaitTime(Duration.ofSeconds(20));

	/** How much longer than Redis's own timings the failure detection and election may take on a loaded machine. */
	private static final Duration LOAD_ALLOWANCE = Duration.ofSeconds(3);

	private static final Duration LONG = Duration.ofSeconds(30);

	private static final String HEADER = "| change | critical sections | overlaps (allowed by the model?) | stale reads"
			+ " and writes rejected | lost updates | lock calls that failed closed | recovery |\n"
			+ "|---|---|---|---|---|---|---|\n";

	private static final TreeMap<Integer, String> report = new TreeMap<>();

	private static String redisVersion = "";

	private final List<AutoCloseable> resources = new ArrayList<>();

	private RedisCluster cluster;

	@AfterEach
	void close() throws Exception {
		for (AutoCloseable resource : this.resources) {
			resource.close();
		}
		this.resources.clear();
	}

	@AfterAll
	static void writeReport() throws Exception {
		if (report.isEmpty()) {
			return;
		}
		StringBuilder section = new StringBuilder("## A Redis Cluster failing over, losing a master, growing\n\n"
				+ "Written by `RedisClusterFailoverTests` on a cluster of three masters with a replica each (Redis "
				+ redisVersion + ", cluster-node-timeout " + RedisCluster.NODE_TIMEOUT_MILLIS + " ms), or three"
				+ " masters for the added one. Four threads of two lock services do the fenced workload above (2 s"
				+ " leases, waits up to 20 s, locksmith.redis-timeout 2 s) through one change to the master of an"
				+ " account; their connections refresh the topology on Lettuce's adaptive triggers and every "
				+ REFRESH_PERIOD.toSeconds() + " s. Recovery runs from the start of the change (for the added"
				+ " master, from the end of the rebalance) until a holder granted after it read the account's"
				+ " counter.\n\n" + HEADER);
		report.headMap(4).values().forEach((row) -> section.append(row).append('\n'));
		section.append("""

				What the model allows: `CLUSTER FAILOVER` makes the master wait until its replica has every write, so
				no grant is lost and no overlap is allowed. `kill -9` of a master loses the writes it acknowledged but
				had not yet passed to its replica (replication is asynchronous, and Locksmith does not wait for it):
				a grant can vanish, and a second holder can then overlap the first. Overlaps are allowed there; lost
				updates are not, because the second holder's fencing token (at least the new master's clock in
				microseconds) is higher than the first's, and the fenced counter rejects the first holder's late write.
				Lock calls for the killed master's slots fail closed until its replica is elected (node timeout plus
				election) and the connection's topology refresh learns of it: in these runs within seconds, as the
				connections refresh every 5 s. Lettuce's adaptive trigger fires on the first reconnect to the dead
				master, before the replica is elected, and may not fire again for 30 s, so the periodic refresh
				(`spring.data.redis.lettuce.cluster.refresh.period`, 30 s by Locksmith's default) bounds the recovery
				(27.9 s in `ClusterTopologyRefreshTests`). While slots merely move
				(the added master), no lock call may fail.
				""");
		if (report.containsKey(4)) {
			section.append('\n').append(report.get(4)).append('\n');
		}
		ReliabilityReport.writeSection("cluster-failover", section.toString());
	}

	@Test
	void fencedWorkGoesThroughAManualFailoverWithoutAnOverlapOrALostUpdate() throws Exception {
		startCluster(true);
		Change failover = changeTheMasterOfAnAccount("`CLUSTER FAILOVER` of the account's master to its replica",
				false, this.cluster::failover);
		Outcome outcome = failover.outcome();
		report.put(1, ReliabilityReport.row(outcome));

		assertThat(outcome.unavailable()).as("lock calls that failed through a manual failover").isZero();
		assertThat(outcome.overlaps()).as("a manual failover waits for the replica: nothing acknowledged is lost")
			.isZero();
		assertThat(outcome.lostUpdates()).isZero();
		assertThat(outcome.recovery()).isLessThan(failover.agreed().plus(REFRESH_PERIOD).plus(REDIS_TIMEOUT));
	}

	@Test
	void fencedWorkRecoversFromAKilledMasterWithoutALostUpdate() throws Exception {
		startCluster(true);
		Change kill = changeTheMasterOfAnAccount("`kill -9` of the account's master, its replica elected in its place",
				true, this.cluster::kill);
		Outcome outcome = kill.outcome();
		report.put(2, ReliabilityReport.row(outcome));

		// Replication is asynchronous: a grant the master acknowledged but did not pass on is lost with it, and a
		// second holder may then overlap the first. The fencing token, from the new master's clock, stops the
		// first holder's late write.
		assertThat(outcome.lostUpdates()).isZero();
		assertThat(kill.agreed()).as("node timeout and election, with room for a loaded machine")
			.isLessThan(Duration.ofMillis(RedisCluster.NODE_TIMEOUT_MILLIS).plus(ELECTION).plus(LOAD_ALLOWANCE));
		assertThat(outcome.recovery()).as("the election, then a topology refresh and one Redis timeout")
			.isLessThan(kill.agreed().plus(REFRESH_PERIOD).plus(REDIS_TIMEOUT));
	}

	@Test
	void fencedWorkGoesThroughAnAddedMasterAndARebalanceWithoutAFailedCall() throws Exception {
		startCluster(false);
		FencedWorkload workload = startWorkload();
		Map<String, Long> before = workload.snapshot();
		long started = System.nanoTime();
		RedisServer added = this.cluster.addMaster();
		int moved = this.cluster.rebalance();
		List<String> movedAccounts = Checker.KEYS.stream()
			.filter((key) -> this.cluster.nodeServing(KEYS.lockKey(key)) == added)
			.toList();
		Duration rebalanced = Duration.ofNanos(System.nanoTime() - started);
		long finished = System.nanoTime();
		String account = movedAccounts.get(0);
		Duration recovery = workload.awaitNewGrant(account, finished, workload.checker().seen(account));
		workload.awaitMoreWrites(20);
		Outcome outcome = Outcome.between("a fourth master added and " + moved + " slots rebalanced onto it step by"
				+ " step (" + rebalanced.toMillis() + " ms), " + movedAccounts.size() + " of the 3 accounts among them",
				false, before, workload.snapshot(), recovery);
		report.put(3, ReliabilityReport.row(outcome));

		assertThat(movedAccounts).as("accounts whose lock moved to the added master").isNotEmpty();
		assertThat(outcome.unavailable()).as("lock calls that failed while slots merely moved").isZero();
		assertThat(workload.snapshot().getOrDefault("unexpected", 0L)).isZero();
		assertThat(outcome.overlaps()).isZero();
		assertThat(outcome.lostUpdates()).isZero();
	}

	@Test
	void aLockOnASlotMovedToAMasterAddedLaterIsTakenWithoutATopologyRefreshConfigured() throws Exception {
		startCluster(false);
		String key = "moved";
		LockEngines engines = new LockEngines(1, Duration.ofSeconds(1),
				LockEngines.onConnections(this.cluster::connectionFactory));
		this.resources.add(0, engines);
		engines.engine(0).tryAcquire(key, OPTIONS).orElseThrow().close();
		RedisServer added = this.cluster.addMaster();
		int slot = this.cluster.slotOf(KEYS.lockKey(key));
		this.cluster.beginMigration(slot, added);
		this.cluster.finishMigration(slot, added);

		try (LockHandle handle = engines.engine(0).tryAcquire(key, OPTIONS).orElseThrow()) {
			assertThat(added.command("EXISTS", KEYS.lockKey(key))).as("locked on the added master").isEqualTo("1");
		}
	}

	@Test
	void aWaiterIsWokenByItsReleaseNotificationAfterItsSubscribersNodeWasKilled() throws Exception {
		startCluster(true);
		LockEngines engines = newEngines(LONG);
		DefaultLockService waiting = engines.engine(0);
		RedisServer subscriberNode = subscriberNodeOf(waiting, engines.engine(1));
		String key = keyNotServedBy(subscriberNode);
		LockHandle held = engines.engine(1).tryAcquire(key, LockOptions.ofTtl(LONG)).orElseThrow();
		CompletableFuture<LockHandle> waiter = CompletableFuture.supplyAsync(() -> acquire(waiting, key));
		String channel = KEYS.releaseChannel(key);
		await().atMost(Duration.ofSeconds(10)).until(() -> subscribedOn(channel).equals(List.of(subscriberNode)));

		String role = this.cluster.masters().contains(subscriberNode) ? "a master, whose replica was elected"
				: "a replica";
		long killed = System.nanoTime();
		this.cluster.kill(subscriberNode);
		await().atMost(Duration.ofSeconds(30)).until(() -> subscribedOn(channel).size() == 1);
		Duration resubscribed = Duration.ofNanos(System.nanoTime() - killed);
		long released = System.nanoTime();
		held.close();
		waiter.get(30, TimeUnit.SECONDS).close();
		Duration woken = Duration.ofNanos(System.nanoTime() - released);
		report.put(4, "The release subscriber follows a killed node: a waiter's subscriber connection was on a "
				+ "node killed with `kill -9` (" + role + "); Lettuce had subscribed it again on another node "
				+ resubscribed.toMillis() + " ms after the kill (a time that includes the election, for a master), and"
				+ " the next release woke the waiter in " + woken.toMillis() + " ms (its re-check runs every "
				+ LONG.toSeconds() + " s).");

		assertThat(woken).as("woken by the release notification, not its re-check").isLessThan(Duration.ofSeconds(2));
	}

	/**
	 * Runs the workload through {@code change} to the master of the first account: from before it until a
	 * holder granted after it began read the account's counter, and 20 more accepted writes.
	 */
	private Change changeTheMasterOfAnAccount(String fault, boolean overlapsAllowed, Consumer<RedisServer> change) {
		FencedWorkload workload = startWorkload();
		String account = Checker.KEYS.get(0);
		RedisServer master = this.cluster.nodeServing(KEYS.lockKey(account));
		Map<String, Long> before = workload.snapshot();
		long started = System.nanoTime();
		long seen = workload.checker().seen(account);
		change.accept(master);
		Duration agreed = Duration.ofNanos(System.nanoTime() - started);
		Duration recovery = workload.awaitNewGrant(account, started, seen);
		workload.awaitMoreWrites(20);
		return new Change(Outcome.between(fault + " (every node agreed after " + agreed.toMillis() + " ms)",
				overlapsAllowed, before, workload.snapshot(), recovery), agreed);
	}

	/** The node of {@code waiting}'s subscriber connection, found by waiting for a lock that {@code holding} holds. */
	private RedisServer subscriberNodeOf(DefaultLockService waiting, DefaultLockService holding) throws Exception {
		String probe = "probe";
		LockHandle held = holding.tryAcquire(probe, LockOptions.ofTtl(LONG)).orElseThrow();
		CompletableFuture<LockHandle> waiter = CompletableFuture.supplyAsync(() -> acquire(waiting, probe));
		await().atMost(Duration.ofSeconds(10)).until(() -> subscribedOn(KEYS.releaseChannel(probe)).size() == 1);
		RedisServer node = subscribedOn(KEYS.releaseChannel(probe)).get(0);
		held.close();
		waiter.get(30, TimeUnit.SECONDS).close();
		return node;
	}

	/** A key whose lock a master other than {@code node} serves. */
	private String keyNotServedBy(RedisServer node) {
		for (int i = 0;; i++) {
			String key = "woken" + i;
			if (this.cluster.nodeServing(KEYS.lockKey(key)) != node) {
				return key;
			}
		}
	}

	/** The running nodes on which a client subscribes to {@code channel}. */
	private List<RedisServer> subscribedOn(String channel) {
		return this.cluster.nodes()
			.stream()
			.filter((node) -> List.of(node.command("PUBSUB", "CHANNELS", channel).split("\n")).contains(channel))
			.toList();
	}

	private static LockHandle acquire(DefaultLockService service, String key) {
		try {
			return service.acquire(key, LockOptions.ofTtl(LONG).withWaitTime(LONG));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	private void startCluster(boolean replicas) {
		this.cluster = replicas ? RedisCluster.startWithReplicas() : RedisCluster.start();
		this.resources.add(this.cluster);
		redisVersion = ReliabilityReport.redisVersion(this.cluster.nodes().get(0).command("INFO", "server"));
	}

	/** The workload on two services, once 20 writes went through. */
	private FencedWorkload startWorkload() {
		LockEngines engines = newEngines(Duration.ofSeconds(1));
		FencedWorkload workload = new FencedWorkload(List.of(engines.engine(0), engines.engine(1)), OPTIONS);
		this.resources.add(0, workload);
		workload.awaitMoreWrites(20);
		return workload;
	}

	/** Two engines whose waiters re-check every {@code recheckInterval} for a release notification they missed. */
	private LockEngines newEngines(Duration recheckInterval) {
		Duration claimLease = recheckInterval.multipliedBy(2);
		LockEngines engines = new LockEngines(2, recheckInterval, LockEngines.onConnections(
				() -> this.cluster.refreshingConnectionFactory(REFRESH_PERIOD),
				(claimLease.compareTo(RedisLockBackend.DEFAULT_CLAIM_LEASE) > 0) ? claimLease
						: RedisLockBackend.DEFAULT_CLAIM_LEASE));
		this.resources.add(0, engines);
		return engines;
	}

	/** A change to the cluster: how the workload went through it, and how long until every node agreed on it. */
	private record Change(Outcome outcome, Duration agreed) {
	}

}
