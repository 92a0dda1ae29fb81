package dev.locksmith.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A master, one replica and three Sentinels that watch them, all real {@code redis-server}
 * processes on loopback ports, for tests of failover. Sentinels declare the master down after one
 * second without an answer.
 */
public final class RedisSentinelGroup implements AutoCloseable {

	/** The name the Sentinels know the master by ({@code spring.data.redis.sentinel.master}). */
	public static final String MASTER_NAME = "locksmith";

	private static final int SENTINELS = 3;

	private final List<RedisServer> dataNodes = new ArrayList<>();

	private final List<RedisServer> sentinels = new ArrayList<>();

	private RedisSentinelGroup() {
	}

	/** Starts the master, the replica and the Sentinels, and waits until the Sentinels see both. */
	public static RedisSentinelGroup start() {
		RedisSentinelGroup group = new RedisSentinelGroup();
		try {
			RedisServer master = RedisServer.start();
			group.dataNodes.add(master);
			group.dataNodes.add(RedisServer.startOn(RedisServer.freePort(), "--replicaof", "127.0.0.1",
					Integer.toString(master.port())));
			for (int i = 0; i < SENTINELS; i++) {
				group.sentinels.add(RedisServer.startSentinel(RedisServer.freePort(), sentinelConfig(master.port())));
			}
			group.awaitTopology();
			return group;
		}
		catch (RuntimeException ex) {
			group.close();
			throw ex;
		}
	}

	/** {@code host:port} of every Sentinel ({@code spring.data.redis.sentinel.nodes}). */
	public String sentinelNodes() {
		return String.join(",", this.sentinels.stream().map((sentinel) -> "127.0.0.1:" + sentinel.port()).toList());
	}

	/** The server that the Sentinels name as master right now. */
	public RedisServer master() {
		int port = masterPort();
		return this.dataNodes.stream()
			.filter((node) -> node.port() == port)
			.findFirst()
			.orElseThrow(() -> new IllegalStateException("No data node on master port " + port));
	}

	/** The master and the replica, in start order. */
	public List<RedisServer> dataNodes() {
		return this.dataNodes;
	}

	/** The port of the master according to the first Sentinel that answers. */
	public int masterPort() {
		for (RedisServer sentinel : this.sentinels) {
			try {
				String[] address = sentinel.command("SENTINEL", "GET-MASTER-ADDR-BY-NAME", MASTER_NAME).split("\n");
				return Integer.parseInt(address[1]);
			}
			catch (RuntimeException ex) {
				// try the next Sentinel
			}
		}
		throw new IllegalStateException("No Sentinel answered for master " + MASTER_NAME);
	}

	/** Asks a Sentinel to move the master to the replica now; the old master turns replica. */
	public void failover() {
		this.sentinels.get(0).command("SENTINEL", "FAILOVER", MASTER_NAME);
	}

	@Override
	public void close() {
		this.sentinels.forEach(RedisServer::close);
		this.dataNodes.forEach(RedisServer::close);
	}

	private void awaitTopology() {
		long deadline = System.nanoTime() + 30_000_000_000L;
		while (!this.sentinels.stream().allMatch(this::seesReplicaAndPeers)) {
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException("The Sentinels did not discover the replica and each other within 30s");
			}
			RedisServer.sleepBriefly();
		}
	}

	private boolean seesReplicaAndPeers(RedisServer sentinel) {
		String master = sentinel.command("SENTINEL", "MASTER", MASTER_NAME);
		return fieldOf(master, "num-slaves") >= 1 && fieldOf(master, "num-other-sentinels") >= SENTINELS - 1;
	}

	private static int fieldOf(String flatReply, String field) {
		String[] lines = flatReply.split("\n");
		for (int i = 0; i + 1 < lines.length; i += 2) {
			if (lines[i].equals(field)) {
				return Integer.parseInt(lines[i + 1]);
			}
		}
		return -1;
	}

	private static Path sentinelConfig(int masterPort) {
		try {
			Path config = Files.createTempFile("locksmith-sentinel-", ".conf");
			Files.writeString(config, String.join("\n", "sentinel monitor " + MASTER_NAME + " 127.0.0.1 " + masterPort
					+ " 2", "sentinel down-after-milliseconds " + MASTER_NAME + " 1000",
					"sentinel failover-timeout " + MASTER_NAME + " 5000",
					"sentinel parallel-syncs " + MASTER_NAME + " 1", ""));
			return config;
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not write a Sentinel configuration", ex);
		}
	}

}
