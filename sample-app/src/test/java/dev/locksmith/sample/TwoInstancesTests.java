package dev.locksmith.sample;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.http.ResponseEntity;

import dev.locksmith.testing.RedisServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Two instances of the sample on one Redis and one database exclude each other. */
@Tag("slow")
class TwoInstancesTests {

	private static RedisServer redis;

	private static SampleInstance first;

	private static SampleInstance second;

	@BeforeAll
	static void start() {
		redis = RedisServer.start();
		String[] shared = { "spring.data.redis.port=" + redis.port(),
				"spring.datasource.url=jdbc:h2:mem:two-instances;DB_CLOSE_DELAY=-1", "sample.report.duration=3s" };
		first = SampleInstance.start(shared);
		second = SampleInstance.start(append(shared, "management.endpoint.locks.access=read-only"));
	}

	@AfterAll
	static void stop() {
		second.close();
		first.close();
		redis.close();
	}

	@Test
	void depositsThroughBothInstancesKeepTheBalanceExact() throws Exception {
		long before = balance();
		List<CompletableFuture<Void>> clients = new ArrayList<>();
		for (int c = 0; c < 6; c++) {
			SampleInstance instance = (c % 2 == 0) ? first : second;
			clients.add(CompletableFuture.runAsync(() -> {
				for (int i = 0; i < 20; i++) {
					assertThat(instance.http().post().uri("/accounts/alice/deposit?cents=1").retrieve()
						.toBodilessEntity().getStatusCode().value()).isEqualTo(200);
				}
			}));
		}
		CompletableFuture.allOf(clients.toArray(CompletableFuture[]::new)).get(2, TimeUnit.MINUTES);

		assertThat(balance()).isEqualTo(before + 120);
	}

	@Test
	void onlyOneInstanceRunsTheNightlyReportWhichOutlivesItsLease() throws Exception {
		CompletableFuture<ResponseEntity<Map>> running = CompletableFuture
			.supplyAsync(() -> first.http().post().uri("/reports/nightly").retrieve().toEntity(Map.class));
		await().atMost(Duration.ofSeconds(10))
			.until(() -> redis.command("EXISTS", "lock:{nightly-report}").equals("1"));

		ResponseEntity<Map> skipped = second.http().post().uri("/reports/nightly").retrieve().toEntity(Map.class);
		assertThat(skipped.getStatusCode().value()).isEqualTo(409);
		assertThat(skipped.getBody()).containsKey("skipped");
		ResponseEntity<Map> report = running.get(30, TimeUnit.SECONDS);
		assertThat(report.getStatusCode().value()).isEqualTo(200);
		assertThat(((Number) report.getBody().get("renewals")).longValue()).as("a 3s run on a 2s lease").isPositive();
	}

	@Test
	void forcedReleaseIsAbsentWhereItIsNotEnabled() {
		int status = second.http().delete().uri("/actuator/locks/account:alice").retrieve().toBodilessEntity()
			.getStatusCode().value();

		assertThat(status).isIn(404, 405);
	}

	private static long balance() {
		return ((Number) first.http().get().uri("/accounts/alice").retrieve().body(Map.class).get("balance"))
			.longValue();
	}

	private static String[] append(String[] values, String value) {
		String[] all = java.util.Arrays.copyOf(values, values.length + 1);
		all[values.length] = value;
		return all;
	}

}
