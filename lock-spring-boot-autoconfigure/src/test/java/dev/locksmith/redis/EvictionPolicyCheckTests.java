package dev.locksmith.redis;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.locksmith.testing.RedisServer;
import dev.locksmith.testing.RedisServerExtension;

import static org.assertj.core.api.Assertions.assertThat;

/** Startup warns when Redis may evict lock keys, and never fails because it cannot tell. */
@ExtendWith(OutputCaptureExtension.class)
class EvictionPolicyCheckTests {

	@RegisterExtension
	static final RedisServerExtension redisServer = new RedisServerExtension();

	@AfterEach
	void restorePolicy() {
		redisServer.server().command("CONFIG", "SET", "maxmemory-policy", "noeviction");
	}

	@Test
	void aPolicyThatEvictsKeysWithATtlIsWarnedAbout(CapturedOutput output) {
		redisServer.server().command("CONFIG", "SET", "maxmemory-policy", "volatile-lru");

		assertThat(check(redisServer.server())).containsExactly(entry("Redis", "volatile-lru"));
		assertThat(output).contains("Redis runs with maxmemory-policy volatile-lru")
			.contains("Set maxmemory-policy to noeviction");
	}

	@Test
	void noevictionIsNotWarnedAbout(CapturedOutput output) {
		assertThat(check(redisServer.server())).containsExactly(entry("Redis", "noeviction"));
		assertThat(output).doesNotContain("runs with maxmemory-policy");
	}

	@Test
	void aServerWithoutConfigIsOnlyReported(CapturedOutput output) {
		try (RedisServer locked = RedisServer.startOn(RedisServer.freePort(), "--rename-command", "CONFIG", "")) {
			assertThat(check(locked)).isEmpty();
		}
		assertThat(output).contains("Could not read maxmemory-policy of Redis (CONFIG may be disabled)");
	}

	private static java.util.Map<String, String> check(RedisServer server) {
		LettuceConnectionFactory connections = server.connectionFactory();
		try {
			return new EvictionPolicyCheck(connections).check();
		}
		finally {
			connections.destroy();
		}
	}

	private static java.util.Map.Entry<String, String> entry(String server, String policy) {
		return java.util.Map.entry(server, policy);
	}

}
