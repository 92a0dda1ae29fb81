package dev.locksmith.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;

import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * A real Redis Cluster of three master {@code redis-server} processes on loopback ports, with the
 * 16,384 hash slots split between them, for tests of cluster behaviour. A slot can be moved to
 * another node step by step, the way {@code redis-cli --cluster reshard} does, to hold its migration open.
 */
public final class RedisCluster implements AutoCloseable {

	private static final int SLOTS = 16384;

	private static final int NODES = 3;

	private static final int MIGRATE_TIMEOUT_MILLIS = 5000;

	private final List<RedisServer> nodes = new ArrayList<>();

	/** The slots moved since start, and the node that serves each now. */
	private final Map<Integer, RedisServer> movedSlots = new ConcurrentHashMap<>();

	private RedisCluster() {
	}

	/** Starts three nodes, assigns the slots, joins them, and waits until the cluster is OK. */
	public static RedisCluster start() {
		RedisCluster cluster = new RedisCluster();
		try {
			for (int i = 0; i < NODES; i++) {
				// Nodes keep serving their own slots while another is down, as tests of one failed node need.
				cluster.nodes.add(RedisServer.startOn(clusterPort(), "--cluster-enabled", "yes",
						"--cluster-config-file", "nodes.conf", "--cluster-node-timeout", "2000",
						"--cluster-require-full-coverage", "no"));
			}
			cluster.assignSlots();
			cluster.meet();
			cluster.awaitOk();
			return cluster;
		}
		catch (RuntimeException ex) {
			cluster.close();
			throw ex;
		}
	}

	/** A started Lettuce connection factory for the cluster; the caller destroys it. */
	public LettuceConnectionFactory connectionFactory() {
		RedisClusterConfiguration configuration = new RedisClusterConfiguration(
				this.nodes.stream().map((node) -> "127.0.0.1:" + node.port()).toList());
		LettuceConnectionFactory factory = new LettuceConnectionFactory(configuration);
		factory.afterPropertiesSet();
		factory.start();
		return factory;
	}

	/** The nodes, for commands sent to one of them. */
	public List<RedisServer> nodes() {
		return this.nodes;
	}

	/** The node that serves the hash slot of {@code key}, for pausing or killing that one node. */
	public RedisServer nodeServing(String key) {
		int slot = slotOf(key);
		return this.movedSlots.getOrDefault(slot, this.nodes.get(slot / slotsPerNode()));
	}

	/** The hash slot of {@code key}. */
	public int slotOf(String key) {
		return Integer.parseInt(this.nodes.get(0).command("CLUSTER", "KEYSLOT", key));
	}

	/**
	 * Opens the migration of {@code slot} to {@code target}: the target imports it, its current node
	 * migrates it. Until {@link #finishMigration}, its keys stay where they are unless moved by
	 * {@link #moveKeys}, and commands on keys of several places answer {@code TRYAGAIN} or {@code ASK}.
	 */
	public void beginMigration(int slot, RedisServer target) {
		RedisServer source = servingSlot(slot);
		checkReply(target.command("CLUSTER", "SETSLOT", Integer.toString(slot), "IMPORTING", nodeId(source)));
		checkReply(source.command("CLUSTER", "SETSLOT", Integer.toString(slot), "MIGRATING", nodeId(target)));
	}

	/** Moves {@code keys} of a slot whose migration is open from its current node to {@code target}. */
	public void moveKeys(RedisServer target, String... keys) {
		List<String> command = new ArrayList<>(List.of("MIGRATE", "127.0.0.1", Integer.toString(target.port()), "",
				"0", Integer.toString(MIGRATE_TIMEOUT_MILLIS), "REPLACE", "KEYS"));
		command.addAll(List.of(keys));
		checkReply(servingSlot(slotOf(keys[0])).command(command.toArray(String[]::new)));
	}

	/** Moves the keys left of {@code slot} to {@code target} and gives it the slot, on every node. */
	public void finishMigration(int slot, RedisServer target) {
		RedisServer source = servingSlot(slot);
		String left;
		while (!(left = source.command("CLUSTER", "GETKEYSINSLOT", Integer.toString(slot), "100")).isEmpty()) {
			moveKeys(target, left.split("\n"));
		}
		String[] owner = { "CLUSTER", "SETSLOT", Integer.toString(slot), "NODE", nodeId(target) };
		checkReply(target.command(owner));
		checkReply(source.command(owner));
		this.nodes.stream().filter((node) -> node != target && node != source).forEach((node) -> node.command(owner));
		this.movedSlots.put(slot, target);
	}

	@Override
	public void close() {
		this.nodes.forEach(RedisServer::close);
	}

	private RedisServer servingSlot(int slot) {
		return this.movedSlots.getOrDefault(slot, this.nodes.get(slot / slotsPerNode()));
	}

	private static String nodeId(RedisServer node) {
		return node.command("CLUSTER", "MYID");
	}

	private static void checkReply(String reply) {
		if (!reply.equals("OK") && !reply.equals("NOKEY")) {
			throw new IllegalStateException("Redis refused a migration step: " + reply);
		}
	}

	private static int slotsPerNode() {
		return (SLOTS + NODES - 1) / NODES;
	}

	private void assignSlots() {
		int perNode = slotsPerNode();
		for (int i = 0; i < NODES; i++) {
			List<String> command = new ArrayList<>(List.of("CLUSTER", "ADDSLOTS"));
			IntStream.range(i * perNode, Math.min(SLOTS, (i + 1) * perNode)).mapToObj(Integer::toString)
				.forEach(command::add);
			this.nodes.get(i).command(command.toArray(String[]::new));
		}
	}

	private void meet() {
		for (RedisServer other : this.nodes.subList(1, NODES)) {
			this.nodes.get(0).command("CLUSTER", "MEET", "127.0.0.1", Integer.toString(other.port()));
		}
	}

	private void awaitOk() {
		long deadline = System.nanoTime() + 30_000_000_000L;
		while (!this.nodes.stream().allMatch((node) -> node.command("CLUSTER", "INFO").contains("cluster_state:ok"))) {
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException("The Redis cluster did not become ready within 30s");
			}
			RedisServer.sleepBriefly();
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
