package dev.locksmith.testing;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.stream.IntStream;

import io.lettuce.core.cluster.ClusterClientOptions;
import org.jspecify.annotations.Nullable;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * A real Redis Cluster of {@code redis-server} processes on loopback ports: three masters, with or
 * without a replica each, the 16,384 hash slots split between the masters. Tests can change it while it
 * serves, the way operators and {@code redis-cli --cluster} do: move a slot step by step (to hold its
 * migration open), fail a master over to its replica ({@code CLUSTER FAILOVER}), {@code kill -9} a
 * node (a master until its replica takes over), and add a master and rebalance the slots onto it. Nodes declare
 * a silent node failed after {@value #NODE_TIMEOUT_MILLIS} ms.
 */
public final class RedisCluster implements AutoCloseable {

	/** {@code cluster-node-timeout}: how long a master may be silent before the others fail it. */
	public static final int NODE_TIMEOUT_MILLIS = 2000;

	private static final int SLOTS = 16384;

	private static final int MASTERS = 3;

	private static final Duration CHANGE_TIMEOUT = Duration.ofSeconds(30);

	/** The running nodes: masters first as started, then replicas, then nodes added later. */
	private final List<RedisServer> nodes = new CopyOnWriteArrayList<>();

	private final List<RedisServer> started = new CopyOnWriteArrayList<>();

	/** The build of every node; {@code null} for {@link RedisBinary#get()}'s. */
	private final @Nullable RedisVersion version;

	private RedisCluster(@Nullable RedisVersion version) {
		this.version = version;
	}

	/** Starts three masters, assigns the slots, joins them, and waits until the cluster is OK. */
	public static RedisCluster start() {
		return start(null, false);
	}

	/** Starts three masters of {@code version}, such as the system's Redis 7 with sharded pub/sub. */
	public static RedisCluster start(RedisVersion version) {
		return start(version, false);
	}

	/** Starts three masters and a replica of each, and waits until the cluster is OK and every replica in sync. */
	public static RedisCluster startWithReplicas() {
		return start(null, true);
	}

	/** Starts three masters of {@code version} and a replica of each, as {@link #startWithReplicas()} does. */
	public static RedisCluster startWithReplicas(RedisVersion version) {
		return start(version, true);
	}

	private static RedisCluster start(@Nullable RedisVersion version, boolean replicas) {
		RedisCluster cluster = new RedisCluster(version);
		try {
			for (int i = 0; i < MASTERS * (replicas ? 2 : 1); i++) {
				cluster.startNode();
			}
			cluster.assignSlots();
			cluster.meet(cluster.nodes.subList(1, cluster.nodes.size()));
			if (replicas) {
				cluster.replicate();
			}
			cluster.awaitEveryNode(cluster::knowsEveryNode, "agree");
			// cluster_state is ok before every node has heard which master serves each slot (full coverage is
			// not required), and a client that reads its first view from such a node would miss a master
			await(() -> cluster.nodes.stream()
				.allMatch((node) -> node.command("CLUSTER", "INFO").contains("cluster_slots_ok:" + SLOTS)),
					"see every slot served");
			return cluster;
		}
		catch (RuntimeException ex) {
			cluster.close();
			throw ex;
		}
	}

	/** A started Lettuce connection factory for the cluster, with Lettuce's defaults; the caller destroys it. */
	public LettuceConnectionFactory connectionFactory() {
		return connectionFactory(LettuceClientConfiguration.defaultConfiguration());
	}

	/**
	 * A started Lettuce connection factory that refreshes its view of the cluster on Lettuce's adaptive
	 * triggers and every {@code period}, as Spring Boot's
	 * {@code spring.data.redis.lettuce.cluster.refresh.adaptive=true} and {@code .period} set it up; the
	 * caller destroys it.
	 */
	public LettuceConnectionFactory refreshingConnectionFactory(Duration period) {
		ClusterTopologyRefreshOptions refresh = ClusterTopologyRefreshOptions.builder()
			.enableAllAdaptiveRefreshTriggers()
			.enablePeriodicRefresh(period)
			.build();
		return connectionFactory(LettuceClientConfiguration.builder()
			.clientOptions(ClusterClientOptions.builder().topologyRefreshOptions(refresh).build())
			.build());
	}

	private LettuceConnectionFactory connectionFactory(LettuceClientConfiguration client) {
		RedisClusterConfiguration configuration = new RedisClusterConfiguration(
				this.nodes.stream().map((node) -> "127.0.0.1:" + node.port()).toList());
		LettuceConnectionFactory factory = new LettuceConnectionFactory(configuration, client);
		factory.afterPropertiesSet();
		factory.start();
		return factory;
	}

	/** The running nodes, masters and replicas, for commands sent to one of them. */
	public List<RedisServer> nodes() {
		return List.copyOf(this.nodes);
	}

	/** The masters that serve slots now, as the cluster sees them. */
	public List<RedisServer> masters() {
		return view().servingMasters().stream().map(this::server).toList();
	}

	/** The master that serves the hash slot of {@code key} now, for pausing or killing that one node. */
	public RedisServer nodeServing(String key) {
		return servingSlot(slotOf(key));
	}

	/** The hash slot of {@code key}. */
	public int slotOf(String key) {
		return Integer.parseInt(this.nodes.get(0).command("CLUSTER", "KEYSLOT", key));
	}

	/** The replica of {@code master}. */
	public RedisServer replicaOf(RedisServer master) {
		ClusterNodes view = view();
		String masterId = view.onPort(master.port()).orElseThrow().id();
		return server(view.replicaOf(masterId)
			.orElseThrow(() -> new IllegalStateException("Master " + master.port() + " has no replica")));
	}

	/**
	 * Fails {@code master} over to its replica with {@code CLUSTER FAILOVER}, which waits for the replica
	 * to catch up first, and waits until every node sees the replica serve the master's slots.
	 * @return the new master
	 */
	public RedisServer failover(RedisServer master) {
		RedisServer replica = replicaOf(master);
		List<int[]> slots = view().onPort(master.port()).orElseThrow().slotRanges();
		checkReply(replica.command("CLUSTER", "FAILOVER"));
		awaitServing(replica, slots, "see " + replica.port() + " take over from " + master.port());
		return replica;
	}

	/**
	 * Kills {@code node} with SIGKILL. For a master, waits until the other nodes failed it and its replica
	 * was elected in its place: about the node timeout plus the election.
	 */
	public void kill(RedisServer node) {
		ClusterNodes.Node killed = view().onPort(node.port()).orElseThrow();
		RedisServer replica = killed.isLiveMaster() ? replicaOf(node) : null;
		node.kill();
		this.nodes.remove(node);
		if (replica != null) {
			awaitServing(replica, killed.slotRanges(),
					"elect " + replica.port() + " in place of the killed " + node.port());
		}
	}

	/** Starts a master without slots, joins it to the cluster, and waits until every node knows it. */
	public RedisServer addMaster() {
		RedisServer added = startNode();
		meet(List.of(added));
		awaitEveryNode((view) -> view.onPort(added.port()).filter(ClusterNodes.Node::isLiveMaster).isPresent(),
				"know the added master " + added.port());
		return added;
	}

	/**
	 * Moves slots, one by one and step by step as {@code redis-cli --cluster rebalance} does, until every
	 * live master (also one without slots) serves as many as the others, give or take one. Each master
	 * gives up the lowest of its slots.
	 * @return how many slots moved
	 */
	public int rebalance() {
		ClusterNodes view = view();
		List<ClusterNodes.Node> masters = view.liveMasters();
		List<RedisServer> masterServers = masters.stream().map(this::server).toList();
		List<Integer> surplus = new ArrayList<>();
		List<RedisServer> sources = new ArrayList<>();
		for (int i = 0; i < masters.size(); i++) {
			List<Integer> slots = masters.get(i).slotList();
			int share = SLOTS / masters.size() + ((i < SLOTS % masters.size()) ? 1 : 0);
			for (Integer slot : slots.subList(0, Math.max(0, slots.size() - share))) {
				surplus.add(slot);
				sources.add(masterServers.get(i));
			}
		}
		int moved = 0;
		try (AdminConnections admin = new AdminConnections()) {
			for (int i = 0; i < masters.size(); i++) {
				int deficit = SLOTS / masters.size() + ((i < SLOTS % masters.size()) ? 1 : 0) - masters.get(i).slots();
				for (int n = 0; n < deficit; n++, moved++) {
					SlotMigration migration = new SlotMigration(admin, surplus.get(moved), sources.get(moved),
							masterServers.get(i));
					migration.begin();
					migration.finish(masterServers);
				}
			}
		}
		awaitEveryNode((other) -> other.servingMasters().size() == masters.size(), "see the slots rebalanced");
		return moved;
	}

	/**
	 * Opens the migration of {@code slot} to {@code target}: the target imports it, its current node
	 * migrates it. Until {@link #finishMigration}, its keys stay where they are unless moved by
	 * {@link #moveKeys}, and commands on keys of several places answer {@code TRYAGAIN} or {@code ASK}.
	 */
	public void beginMigration(int slot, RedisServer target) {
		try (AdminConnections admin = new AdminConnections()) {
			new SlotMigration(admin, slot, servingSlot(slot), target).begin();
		}
	}

	/** Moves {@code keys} of a slot whose migration is open from its current node to {@code target}. */
	public void moveKeys(RedisServer target, String... keys) {
		int slot = slotOf(keys[0]);
		try (AdminConnections admin = new AdminConnections()) {
			new SlotMigration(admin, slot, servingSlot(slot), target).moveKeys(keys);
		}
	}

	/** Moves the keys left of {@code slot} to {@code target} and gives it the slot, on every master. */
	public void finishMigration(int slot, RedisServer target) {
		try (AdminConnections admin = new AdminConnections()) {
			new SlotMigration(admin, slot, servingSlot(slot), target).finish(masters());
		}
	}

	@Override
	public void close() {
		this.started.forEach(RedisServer::close);
	}

	private RedisServer servingSlot(int slot) {
		return server(view().serving(slot)
			.orElseThrow(() -> new IllegalStateException("No live master serves slot " + slot)));
	}

	/** The cluster as the first running node sees it. */
	private ClusterNodes view() {
		return ClusterNodes.parse(this.nodes.get(0).command("CLUSTER", "NODES"));
	}

	private RedisServer server(ClusterNodes.Node node) {
		return this.started.stream()
			.filter((server) -> server.port() == node.port())
			.findFirst()
			.orElseThrow(() -> new IllegalStateException("No node of this cluster on port " + node.port()));
	}

	private RedisServer startNode() {
		// Nodes keep serving their own slots while another is down, as tests of one failed node need.
		String[] arguments = { "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
				"--cluster-node-timeout", Integer.toString(NODE_TIMEOUT_MILLIS), "--cluster-require-full-coverage", "no" };
		RedisServer node = (this.version != null) ? RedisServer.startOn(this.version, clusterPort(), arguments)
				: RedisServer.startOn(clusterPort(), arguments);
		this.started.add(node);
		this.nodes.add(node);
		return node;
	}

	private void assignSlots() {
		int perNode = (SLOTS + MASTERS - 1) / MASTERS;
		for (int i = 0; i < MASTERS; i++) {
			List<String> command = new ArrayList<>(List.of("CLUSTER", "ADDSLOTS"));
			IntStream.range(i * perNode, Math.min(SLOTS, (i + 1) * perNode)).mapToObj(Integer::toString)
				.forEach(command::add);
			this.nodes.get(i).command(command.toArray(String[]::new));
		}
	}

	private void meet(List<RedisServer> others) {
		for (RedisServer other : others) {
			this.nodes.get(0).command("CLUSTER", "MEET", "127.0.0.1", Integer.toString(other.port()));
		}
	}

	/** Whether {@code view} has every running node under its own id (none still in handshake). */
	private boolean knowsEveryNode(ClusterNodes view) {
		return view.nodes().size() == this.nodes.size()
				&& view.nodes().stream().noneMatch((node) -> node.flags().contains("handshake"));
	}

	/** Makes each node after the masters a replica of one master, once it knows every node. */
	private void replicate() {
		awaitEveryNode(this::knowsEveryNode, "know each other");
		for (int i = MASTERS; i < this.nodes.size(); i++) {
			String masterId = this.nodes.get(i - MASTERS).command("CLUSTER", "MYID");
			checkReply(this.nodes.get(i).command("CLUSTER", "REPLICATE", masterId));
		}
		await(() -> this.nodes.subList(MASTERS, this.nodes.size())
			.stream()
			.allMatch((replica) -> replica.command("INFO", "replication").contains("master_link_status:up")),
				"replicas in sync");
		awaitEveryNode((view) -> view.nodes().stream().filter((node) -> !node.isLiveMaster()).count() == MASTERS,
				"see the replicas");
	}

	/** Waits until every running node sees {@code master} serve {@code slots}, and the cluster is OK. */
	private void awaitServing(RedisServer master, List<int[]> slots, String what) {
		awaitEveryNode((view) -> view.onPort(master.port())
			.filter(ClusterNodes.Node::isLiveMaster)
			.filter((node) -> slots.stream().allMatch((range) -> node.serves(range[0]) && node.serves(range[1])))
			.isPresent(), what);
	}

	/** Waits until every running node's view passes {@code condition} and says the cluster is OK. */
	private void awaitEveryNode(Predicate<ClusterNodes> condition, String what) {
		await(() -> this.nodes.stream()
			.allMatch((node) -> node.command("CLUSTER", "INFO").contains("cluster_state:ok")
					&& condition.test(ClusterNodes.parse(node.command("CLUSTER", "NODES")))),
				what);
	}

	private static void await(BooleanSupplier condition, String what) {
		long deadline = System.nanoTime() + CHANGE_TIMEOUT.toNanos();
		while (!condition.getAsBoolean()) {
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException(
						"The Redis cluster's nodes did not " + what + " within " + CHANGE_TIMEOUT.toSeconds() + "s");
			}
			RedisServer.sleepBriefly();
		}
	}

	private static void checkReply(String reply) {
		if (!reply.equals("OK")) {
			throw new IllegalStateException("Redis refused a cluster change: " + reply);
		}
	}

	/** A free port whose cluster bus port (port + 10000) is free too. */
	private static int clusterPort() {
		while (true) {
			int port = RedisServer.freePort();
			if (port + 10000 <= 65535 && RedisServer.isFree(port + 10000)) {
				return port;
			}
		}
	}

}
