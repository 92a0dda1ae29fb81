package dev.locksmith.sample;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.web.client.RestClient;

import dev.locksmith.testing.RedisServer;

import static org.assertj.core.api.Assertions.assertThat;

/** The sample starts with one command: no Redis configured, it runs its own and serves locked jobs. */
class SampleApplicationTests {

	@Test
	void startsAnEmbeddedRedisWhenNoneIsConfiguredAndRunsJobsUnderALock() {
		int port = RedisServer.freePort();
		SpringApplication application = new SpringApplication(SampleApplication.class);
		application.addListeners(new EmbeddedRedisStarter());
		try (ConfigurableApplicationContext context = application.run("--server.port=0",
				"--" + EmbeddedRedisStarter.PORT_PROPERTY + "=" + port)) {
			assertThat(RedisServer.answersOn(port)).isTrue();
			int httpPort = ((WebServerApplicationContext) context).getWebServer().getPort();
			RestClient http = RestClient.create("http://127.0.0.1:" + httpPort);

			Map<?, ?> first = http.post().uri("/jobs/report/run").retrieve().body(Map.class);
			Map<?, ?> second = http.post().uri("/jobs/report/run").retrieve().body(Map.class);

			assertThat(first.get("job")).isEqualTo("report");
			assertThat(((Number) second.get("fencingToken")).longValue())
				.isGreaterThan(((Number) first.get("fencingToken")).longValue());
		}
		assertThat(RedisServer.answersOn(port)).as("the embedded Redis stops with the app").isFalse();
	}

}
