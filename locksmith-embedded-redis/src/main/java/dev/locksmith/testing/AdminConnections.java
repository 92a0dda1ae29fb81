package dev.locksmith.testing;

import java.util.HashMap;
import java.util.Map;

/** One open administration connection per node, for a step that sends many commands to few nodes. */
final class AdminConnections implements AutoCloseable {

	private static final int TIMEOUT_MILLIS = 5000;

	private final Map<Integer, RespClient.Connection> connections = new HashMap<>();

	private final Map<Integer, String> ids = new HashMap<>();

	/** Sends one command to {@code node} and returns the reply as text. */
	String call(RedisServer node, String... args) {
		return this.connections.computeIfAbsent(node.port(), (port) -> new RespClient.Connection(port, TIMEOUT_MILLIS))
			.call(args);
	}

	/** The cluster node id of {@code node}, asked once. */
	String id(RedisServer node) {
		return this.ids.computeIfAbsent(node.port(), (port) -> call(node, "CLUSTER", "MYID"));
	}

	@Override
	public void close() {
		this.connections.values().forEach(RespClient.Connection::close);
	}

}
