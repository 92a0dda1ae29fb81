package dev.locksmith.redis;

import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

import dev.locksmith.testing.RedisServer;

/**
 * The servers a generated scenario runs on, one Redis or the independent servers of Redlock, and how an
 * engine connects to them.
 *
 * @param servers every server of the store
 * @param connector connects one engine, as a separate process would
 */
record ScenarioStore(List<RedisServer> servers, Supplier<LockEngines.Connected> connector) {

	/** One Redis. */
	static ScenarioStore oneServer(RedisServer redis) {
		return new ScenarioStore(List.of(redis), LockEngines.oneServer(redis));
	}

	/** Empties every server. */
	void flush() {
		this.servers.forEach((server) -> server.command("FLUSHALL"));
	}

	/** {@code count} engines on the store. */
	LockEngines engines(int count, Duration recheckInterval) {
		return new LockEngines(count, recheckInterval, this.connector);
	}

	/** Zeroes every server's command counts. */
	void resetStats() {
		this.servers.forEach(RedisServer::resetStats);
	}

	/** Every EVAL and EVALSHA on all servers since the counts were zeroed. */
	long scripts() {
		return this.servers.stream().mapToLong((server) -> server.callsOf("evalsha", "eval")).sum();
	}

	/** Each server's answer to {@code EVAL script 0 arg}, in order. */
	List<String> eval(String script, String arg) {
		return this.servers.stream().map((server) -> server.command("EVAL", script, "0", arg)).toList();
	}

}
