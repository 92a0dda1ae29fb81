package dev.locksmith.redis;

import java.util.List;
import java.util.stream.IntStream;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import dev.locksmith.testing.RedisServer;

/**
 * JUnit extension that runs five independent {@link RedisServer}s for a test class; before each test it
 * resumes, restarts (when a test killed them) and empties every one of them.
 */
final class RedisServers implements BeforeAllCallback, BeforeEachCallback, AfterAllCallback {

	private List<RedisServer> servers = List.of();

	@Override
	public void beforeAll(ExtensionContext context) {
		this.servers = IntStream.range(0, 5).mapToObj((i) -> RedisServer.start()).toList();
	}

	@Override
	public void beforeEach(ExtensionContext context) {
		for (RedisServer server : this.servers) {
			server.resume();
			if (!RedisServer.answersOn(server.port())) {
				server.restart();
			}
			server.command("FLUSHALL");
		}
	}

	@Override
	public void afterAll(ExtensionContext context) {
		this.servers.forEach(RedisServer::close);
	}

	/** The first {@code count} servers. */
	List<RedisServer> first(int count) {
		return this.servers.subList(0, count);
	}

	/** The {@code redis://} URLs of {@code servers}. */
	static List<String> urls(List<RedisServer> servers) {
		return servers.stream().map((server) -> "redis://127.0.0.1:" + server.port()).toList();
	}

}
