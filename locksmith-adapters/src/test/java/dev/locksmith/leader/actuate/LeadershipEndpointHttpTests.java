package dev.locksmith.leader.actuate;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.web.client.RestClient;

import dev.locksmith.leader.LeaderElections;
import dev.locksmith.testing.RedisServerExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The {@code leadership} endpoint over real HTTP, on two application instances electing leaders of two
 * roles on one real Redis: both name the leader, and only the leader shows since when and its token.
 */
class LeadershipEndpointHttpTests {

	@RegisterExtension
	static final RedisServerExtension redisServer = new RedisServerExtension();

	private static final String EXPOSED = "management.endpoints.web.exposure.include=leadership";

	@Test
	void everyInstanceNamesTheLeaderAndOnlyTheLeaderShowsSinceWhenAndItsFencingToken() {
		Instant before = Instant.now();
		try (ConfigurableApplicationContext first = start("first", EXPOSED)) {
			LeaderElections elections = first.getBean(LeaderElections.class);
			await().atMost(Duration.ofSeconds(30))
				.until(() -> elections.election("billing").isLeader() && elections.election("reports").isLeader());
			try (ConfigurableApplicationContext second = start("second", EXPOSED)) {
				Map<String, Map<String, Object>> onLeader = roles(first);
				Map<String, Map<String, Object>> elsewhere = roles(second);

				assertThat(onLeader).containsOnlyKeys("billing", "reports");
				Map<String, Object> billing = onLeader.get("billing");
				assertThat(billing.get("leader")).isEqualTo("first");
				assertThat(billing.get("leading")).isEqualTo(true);
				assertThat(((Number) billing.get("fencingToken")).longValue())
					.isEqualTo(elections.election("billing").fencingToken().getAsLong());
				assertThat(Instant.parse((String) billing.get("since"))).isBetween(before, Instant.now());
				assertThat(elsewhere).containsOnlyKeys("billing", "reports");
				for (Map<String, Object> role : elsewhere.values()) {
					assertThat(role).containsEntry("leader", "first")
						.containsEntry("leading", false)
						.containsEntry("since", null)
						.containsEntry("fencingToken", null);
				}
			}
		}
	}

	@Test
	void theEndpointIsNotExposedOverHttpUnlessAsked() {
		try (ConfigurableApplicationContext instance = start("only")) {
			HttpStatusCode status = http(instance).get()
				.uri("/actuator/leadership")
				.exchange((request, response) -> response.getStatusCode());
			assertThat(status).isEqualTo(HttpStatus.NOT_FOUND);
		}
	}

	@Test
	void accessNoneTurnsTheEndpointOff() {
		try (ConfigurableApplicationContext instance = start("only", EXPOSED,
				"management.endpoint.leadership.access=none")) {
			assertThat(instance.getBeanNamesForType(LeadershipEndpoint.class)).isEmpty();
		}
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Map<String, Object>> roles(ConfigurableApplicationContext instance) {
		Map<String, Object> body = http(instance).get().uri("/actuator/leadership").retrieve().body(Map.class);
		return (Map<String, Map<String, Object>>) body.get("roles");
	}

	private static RestClient http(ConfigurableApplicationContext instance) {
		return RestClient.create("http://localhost:" + instance.getEnvironment().getProperty("local.server.port"));
	}

	private static ConfigurableApplicationContext start(String instanceId, String... properties) {
		return new SpringApplicationBuilder(LeadershipApplication.class)
			.properties("server.port=0", "spring.data.redis.port=" + redisServer.server().port(),
					"locksmith.instance-id=" + instanceId, "locksmith.leader.roles=billing,reports",
					"locksmith.leader.ttl=5s")
			.properties(properties)
			.run();
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class LeadershipApplication {

	}

}
