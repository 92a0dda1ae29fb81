package dev.locksmith.sample;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.http.ResponseEntity;
import org.springframework.test.context.aot.DisabledInAotMode;

import dev.locksmith.jdbc.PostgresServerExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The sample with its {@code postgres} profile, two instances on one real PostgreSQL and no Redis: a lock that
 * one instance holds is held for the other, which sees it in the database, over real HTTP. Not under AOT: the
 * profile chooses another store, and AOT processing of the default profile fixed the store at build time.
 */
@Tag("slow")
@DisabledInAotMode
class PostgresProfileTests {

	@RegisterExtension
	static final PostgresServerExtension postgres = PostgresServerExtension.withLockSchema();

	@Test
	void anAccountLockHeldByOneInstanceIsHeldForTheOtherThroughTheDatabase() throws Exception {
		try (SampleInstance first = start(); SampleInstance second = start("sample.account-lock.wait-time=0s")) {
			long before = balance(second);
			CompletableFuture<ResponseEntity<Void>> slow = CompletableFuture.supplyAsync(() -> first.http()
				.post()
				.uri("/accounts/alice/deposit?cents=5&thinkTime=4s")
				.retrieve()
				.toBodilessEntity());
			await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
				Map<?, ?> cluster = second.http().get().uri("/actuator/locks?scope=cluster").retrieve().body(Map.class);
				assertThat(cluster.get("store")).isEqualTo("postgresql");
				assertThat((List<?>) cluster.get("locks")).singleElement()
					.satisfies((lock) -> assertThat(((Map<?, ?>) lock).get("key")).isEqualTo("account:alice"));
			});

			ResponseEntity<Map> busy = second.http().post().uri("/accounts/alice/deposit?cents=1").retrieve()
				.toEntity(Map.class);
			assertThat(busy.getStatusCode().value()).as("the second instance finds alice's account locked").isEqualTo(409);
			assertThat(slow.get(30, TimeUnit.SECONDS).getStatusCode().value()).isEqualTo(200);
			assertThat(second.http().post().uri("/accounts/alice/deposit?cents=1").retrieve().toBodilessEntity()
				.getStatusCode().value()).as("released: the second instance takes the lock").isEqualTo(200);
			assertThat(balance(second)).isEqualTo(before + 6);
			Map<?, ?> health = second.http().get().uri("/actuator/health").retrieve().body(Map.class);
			assertThat(health.get("status")).isEqualTo("UP");
		}
	}

	private static SampleInstance start(String... more) {
		Stream<String> properties = Stream.of("spring.profiles.active=postgres",
				"spring.datasource.url=" + postgres.jdbcUrl());
		return SampleInstance.start(Stream.concat(properties, Stream.of(more)).toArray(String[]::new));
	}

	private static long balance(SampleInstance instance) {
		return ((Number) instance.http().get().uri("/accounts/alice").retrieve().body(Map.class).get("balance"))
			.longValue();
	}

}
