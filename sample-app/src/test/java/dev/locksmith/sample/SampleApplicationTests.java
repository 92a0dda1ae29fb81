package dev.locksmith.sample;

import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.locksmith.testing.RedisServer;

import static org.assertj.core.api.Assertions.assertThat;

/** The sample starts with one command: no Redis configured, it runs its own and stops it on shutdown. */
class SampleApplicationTests {

	@Test
	void startsAnEmbeddedRedisWhenNoneIsConfiguredAndStopsItOnShutdown() {
		int port = RedisServer.freePort();
		try (SampleInstance sample = SampleInstance.start("sample.embedded-redis.port=" + port,
				"spring.datasource.url=jdbc:h2:mem:embedded-redis-test")) {
			assertThat(RedisServer.answersOn(port)).isTrue();

			Map<?, ?> account = sample.http().post().uri("/accounts/alice/deposit?cents=5").retrieve().body(Map.class);
			assertThat(account.get("balance")).isEqualTo(10005);
			assertThat(((Number) account.get("fence")).longValue()).isPositive();
		}
		assertThat(RedisServer.answersOn(port)).as("the embedded Redis stops with the app").isFalse();
	}

	@Test
	void usesTheRedisAlreadyRunningOnTheEmbeddedPort() {
		try (RedisServer shared = RedisServer.start();
				SampleInstance sample = SampleInstance.start("sample.embedded-redis.port=" + shared.port(),
						"spring.datasource.url=jdbc:h2:mem:shared-redis-test")) {
			sample.http().post().uri("/accounts/bob/deposit?cents=1").retrieve().toBodilessEntity();

			assertThat(shared.command("EXISTS", "lock:fence:{account:bob}")).isEqualTo("1");
		}
	}

}
