package dev.locksmith.sample;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.http.ResponseEntity;

import dev.locksmith.testing.RedisServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The locks health, UP once the application answers, turns DOWN over HTTP when Redis stops answering. */
class HealthDownTests {

	@Test
	void healthIsDownWhileRedisIsStopped() {
		try (RedisServer redis = RedisServer.start();
				SampleInstance sample = SampleInstance.start("spring.data.redis.port=" + redis.port(),
						"spring.datasource.url=jdbc:h2:mem:health-down", "locksmith.redis-timeout=500ms")) {
			// the first ping of a cold application may outlast the 500ms timeout on a loaded machine
			await().atMost(Duration.ofMinutes(1)).until(() -> health(sample).getStatusCode().value() == 200);
			redis.stop();

			ResponseEntity<Map> down = health(sample);
			assertThat(down.getStatusCode().value()).isEqualTo(503);
			Map<?, ?> locks = (Map<?, ?>) ((Map<?, ?>) down.getBody().get("components")).get("locks");
			assertThat(locks.get("status")).isEqualTo("DOWN");
		}
	}

	private static ResponseEntity<Map> health(SampleInstance sample) {
		return sample.http().get().uri("/actuator/health").retrieve().toEntity(Map.class);
	}

}
