package dev.locksmith.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * A real Redis Cluster of three master {@code redis-server} processes on loopback ports, with the
 * 16,384 hash slots split between them, for tests of cluster behaviour.
 */
public final class RedisCluster implements AutoCloseable {

	private static final int SLOTS = 16384;

	private static final int NODES = 3;

	private final List<RedisServer> nodes = new ArrayList<>();

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
		int slot = Integer.parseInt(this.nodes.get(0).command("CLUSTER", "KEYSLOT", key));
		return this.nodes.get(slot / slotsPerNode());
	}

	@Override
	public void close() {
		this.nodes.forEach(RedisServer::close);
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
