package dev.locksmith.redis;

import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import dev.locksmith.testing.RedisServer;

/**
 * The generated scenarios of {@link QueueInterleavingPropertyTests} on Redlock, three real
 * {@code redis-server}s: the same invariants, a key's holder being the owner a majority of the servers
 * name, and the same script bounds per server, so that a storm of scripts among waiters fails the build.
 * The same system properties size it; by default {@value #DEFAULT_TRIES} tries within
 * {@value #DEFAULT_BUDGET_SECONDS} s.
 */
@Tag("slow")
class RedlockScenarioPropertyTests {

	static final int DEFAULT_TRIES = 10;

	static final int DEFAULT_BUDGET_SECONDS = 30;

	private static List<RedisServer> servers = List.of();

	@BeforeAll
	static void startServers() {
		servers = IntStream.range(0, 3).mapToObj((i) -> RedisServer.start()).toList();
	}

	@AfterAll
	static void stopServers() {
		servers.forEach(RedisServer::close);
	}

	@Test
	void redlockKeepsTheInvariantsAndBoundsItsScriptsInGeneratedInterleavings() throws Exception {
		List<String> urls = servers.stream().map((server) -> "redis://127.0.0.1:" + server.port()).toList();
		ScenarioTries.run(RedisScenarioStore.replicated(servers, () -> connect(urls)),
				DEFAULT_TRIES, DEFAULT_BUDGET_SECONDS);
	}

	/**
	 * Connects one engine to the three servers, with connections of its own. A fixed node timeout of
	 * 250 ms: the default, 5% of the ttl, is 20 ms for the shortest generated leases, which a loaded
	 * build machine misses.
	 */
	private static LockEngines.Connected connect(List<String> urls) {
		RedlockServers connections = RedlockServers.connect(urls, "nodes", Duration.ofSeconds(1));
		RedlockLockBackend backend = RedlockLockBackend.builder(connections.connectionFactories(), LockEngines.KEYS)
			.nodeTimeout(Duration.ofMillis(250))
			.build();
		backend.warmUp().join();
		RedlockReleaseNotifications notifications = RedlockReleaseNotifications.started(
				connections.connectionFactories(), LockEngines.KEYS);
		return new LockEngines.Connected(backend, notifications, () -> {
			notifications.destroy();
			backend.close();
			connections.close();
		});
	}

}
