package dev.locksmith.sample;

import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;

import dev.locksmith.testing.RedisServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Over real HTTP, with no exception handler of the sample's: a busy lock answers 409 and a Redis
 * that does not answer 503, both as problem details that name no key and say when to retry.
 */
class LockErrorsHttpTests {

	private static RedisServer redis;

	private static SampleInstance sample;

	@BeforeAll
	static void start() {
		redis = RedisServer.start();
		sample = SampleInstance.start("spring.data.redis.port=" + redis.port(),
				"spring.datasource.url=jdbc:h2:mem:lock-errors", "locksmith.redis-timeout=500ms",
				"sample.account-lock.wait-time=0s", "locksmith.web.unavailable-retry-after=2s");
	}

	@AfterAll
	static void stop() {
		sample.close();
		redis.close();
	}

	@Test
	void aBusyLockAnswers409WithTheRemainingLeaseAsRetryAfter() {
		redis.command("SET", "lock:{account:alice}", "another-owner", "PX", "60000");
		try {
			ResponseEntity<Map> busy = deposit("alice");

			assertThat(busy.getStatusCode().value()).isEqualTo(409);
			assertThat(busy.getHeaders().getContentType()).isEqualTo(MediaType.APPLICATION_PROBLEM_JSON);
			assertThat(busy.getHeaders().getFirst(HttpHeaders.RETRY_AFTER)).as("the 60s lease, rounded up").isEqualTo("60");
			assertThat(busy.getBody()).containsEntry("status", 409)
				.containsEntry("retryAfter", 60)
				.containsEntry("title", "Conflict")
				.containsEntry("detail", "Another request holds a lock that this request needs; try again later.");
			assertThat(redis.command("GET", "lock:{account:alice}")).isEqualTo("another-owner");
		}
		finally {
			redis.command("DEL", "lock:{account:alice}");
		}
		assertThat(deposit("alice").getStatusCode().value()).isEqualTo(200);
	}

	@Test
	void aRedisThatDoesNotAnswerAnswers503WithTheConfiguredRetryAfter() {
		redis.pause();
		ResponseEntity<Map> unavailable;
		try {
			unavailable = deposit("bob");
		}
		finally {
			redis.resume();
		}

		assertThat(unavailable.getStatusCode().value()).isEqualTo(503);
		assertThat(unavailable.getHeaders().getContentType()).isEqualTo(MediaType.APPLICATION_PROBLEM_JSON);
		assertThat(unavailable.getHeaders().getFirst(HttpHeaders.RETRY_AFTER)).isEqualTo("2");
		assertThat(unavailable.getBody()).containsEntry("status", 503)
			.containsEntry("detail", "Locking is unavailable at the moment; try again later.");
	}

	private static ResponseEntity<Map> deposit(String account) {
		return sample.http().post().uri("/accounts/{id}/deposit?cents=1", account).retrieve().toEntity(Map.class);
	}

}
