package dev.locksmith.sample;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.ResponseEntity;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.client.RestClient;

import dev.locksmith.testing.RedisServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The sample over real HTTP, on a real Redis: exact balances, the locks endpoint, health and metrics. */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = "spring.datasource.url=jdbc:h2:mem:wallet-http-tests;DB_CLOSE_DELAY=-1")
class WalletHttpTests {

	private static RedisServer redis;

	@LocalServerPort
	private int port;

	@Autowired
	private MeterRegistry meters;

	/** Started before the context, not when the class is loaded: AOT processing loads it without running it. */
	@BeforeAll
	static void startRedis() {
		redis = RedisServer.start();
	}

	@DynamicPropertySource
	static void redis(DynamicPropertyRegistry properties) {
		properties.add("spring.data.redis.port", () -> redis.port());
	}

	@AfterAll
	static void stopRedis() {
		redis.close();
	}

	private RestClient http() {
		return RestClient.builder()
			.baseUrl("http://127.0.0.1:" + this.port)
			.defaultStatusHandler((status) -> true, (request, response) -> {
			})
			.build();
	}

	@Test
	void concurrentDepositsKeepTheBalanceExact() throws Exception {
		long before = balance("alice");
		double acquiredBefore = acquired("account");
		List<CompletableFuture<Void>> clients = new ArrayList<>();
		for (int c = 0; c < 8; c++) {
			clients.add(CompletableFuture.runAsync(() -> {
				for (int i = 0; i < 25; i++) {
					assertThat(http().post().uri("/accounts/alice/deposit?cents=1").retrieve().toBodilessEntity()
						.getStatusCode().value()).isEqualTo(200);
				}
			}));
		}
		CompletableFuture.allOf(clients.toArray(CompletableFuture[]::new)).get(2, TimeUnit.MINUTES);

		assertThat(balance("alice")).isEqualTo(before + 200);
		assertThat(acquired("account") - acquiredBefore).as("locksmith.acquire{name=account,outcome=acquired}")
			.isEqualTo(200);
	}

	@Test
	void oppositeTransfersNeitherDeadlockNorLoseMoney() throws Exception {
		long total = balance("dave") + balance("erin");
		List<CompletableFuture<Void>> clients = new ArrayList<>();
		for (int c = 0; c < 4; c++) {
			String from = (c % 2 == 0) ? "dave" : "erin";
			String to = (c % 2 == 0) ? "erin" : "dave";
			clients.add(CompletableFuture.runAsync(() -> {
				for (int i = 0; i < 20; i++) {
					assertThat(http().post().uri("/accounts/transfer?from={from}&to={to}&cents=3", from, to)
						.retrieve().toBodilessEntity().getStatusCode().value()).isEqualTo(200);
				}
			}));
		}
		CompletableFuture.allOf(clients.toArray(CompletableFuture[]::new)).get(2, TimeUnit.MINUTES);

		assertThat(balance("dave") + balance("erin")).isEqualTo(total);
	}

	@Test
	void aTransferFencesEachAccountWithTheTokenOfItsOwnLock() {
		// Dave's counter runs far ahead of Erin's, as after a clock step on the node that keeps it.
		long farAhead = System.currentTimeMillis() * 1000 + 1_000_000_000_000L;
		redis.command("SET", "lock:fence:{account:dave}", Long.toString(farAhead));

		assertThat(http().post().uri("/accounts/transfer?from=dave&to=erin&cents=1").retrieve().toBodilessEntity()
			.getStatusCode().value()).isEqualTo(200);

		assertThat(fence("dave")).isEqualTo(farAhead + 1);
		assertThat(fence("erin")).isEqualTo(Long.parseLong(redis.command("GET", "lock:fence:{account:erin}")))
			.isLessThan(farAhead);
		assertThat(http().post().uri("/accounts/erin/deposit?cents=1").retrieve().toBodilessEntity().getStatusCode()
			.value()).as("a later holder of erin's lock alone may still write").isEqualTo(200);
	}

	@Test
	void theLocksEndpointListsTheLockOfASlowCallInBothViews() {
		CompletableFuture<ResponseEntity<Void>> slow = CompletableFuture.supplyAsync(
				() -> http().post().uri("/accounts/alice/deposit?cents=1&thinkTime=4s").retrieve().toBodilessEntity());
		try {
			assertSlowCallIsListed();
		}
		finally {
			assertThat(slow.join().getStatusCode().value()).isEqualTo(200);
		}
		assertThat(http().get().uri("/actuator/locks?scope=galaxy").retrieve().toBodilessEntity().getStatusCode().value())
			.isEqualTo(400);
	}

	private void assertSlowCallIsListed() {
		await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
			Map<?, ?> local = http().get().uri("/actuator/locks").retrieve().body(Map.class);
			assertThat(local.get("scope")).isEqualTo("instance");
			assertThat((List<?>) local.get("locks")).singleElement().satisfies((lock) -> {
				Map<?, ?> held = (Map<?, ?>) lock;
				assertThat(held.get("name")).isEqualTo("account");
				assertThat(held.get("key")).isEqualTo("account:alice");
				assertThat(held.get("method")).isEqualTo("WalletService.deposit(String, long, Duration)");
				assertThat(((Number) held.get("fencingToken")).longValue()).isPositive();
			});
		});
		Map<?, ?> cluster = http().get().uri("/actuator/locks?scope=cluster").retrieve().body(Map.class);
		assertThat(cluster.get("store")).isEqualTo("redis-standalone");
		assertThat((List<?>) cluster.get("locks")).singleElement()
			.satisfies((lock) -> assertThat(((Map<?, ?>) lock).get("key")).isEqualTo("account:alice"));
	}

	@Test
	void theHealthShowsTheLocksComponent() {
		Map<?, ?> health = http().get().uri("/actuator/health").retrieve().body(Map.class);

		Map<?, ?> locks = (Map<?, ?>) ((Map<?, ?>) health.get("components")).get("locks");
		assertThat(locks.get("status")).isEqualTo("UP");
		Map<?, ?> details = (Map<?, ?>) locks.get("details");
		assertThat(details.get("store")).isEqualTo("redis-standalone");
		assertThat(details.get("lostLeases")).isEqualTo(0);
		assertThat(details.get("held")).isInstanceOf(Number.class);
	}

	@Test
	void aForceReleasedHolderIsFencedOffByTheNextHoldersWrite() throws Exception {
		long before = balance("bob");
		CompletableFuture<ResponseEntity<Map>> evicted = CompletableFuture.supplyAsync(() -> http().post()
			.uri("/accounts/bob/deposit?cents=100&thinkTime=4s")
			.retrieve()
			.toEntity(Map.class));
		await().atMost(Duration.ofSeconds(10)).until(() -> redis.command("EXISTS", "lock:{account:bob}").equals("1"));

		ResponseEntity<Map> released = http().delete().uri("/actuator/locks/account:bob").retrieve().toEntity(Map.class);
		assertThat(released.getStatusCode().value()).isEqualTo(200);
		assertThat(released.getBody().get("released")).isEqualTo(true);
		assertThat(http().post().uri("/accounts/bob/deposit?cents=1").retrieve().toBodilessEntity().getStatusCode()
			.value()).isEqualTo(200);

		ResponseEntity<Map> stale = evicted.get(10, TimeUnit.SECONDS);
		assertThat(stale.getStatusCode().value()).isEqualTo(409);
		assertThat((String) stale.getBody().get("error")).contains("rejected: a newer lock holder wrote");
		assertThat(balance("bob")).isEqualTo(before + 1);
		assertThat(http().delete().uri("/actuator/locks/account:bob").retrieve().body(Map.class).get("released"))
			.isEqualTo(false);
	}

	@Test
	void aStatementHoldsItsLockUntilTheFutureCompletes() {
		CompletableFuture<Map> statement = CompletableFuture
			.supplyAsync(() -> http().get().uri("/accounts/alice/statement").retrieve().body(Map.class));
		await().atMost(Duration.ofSeconds(10))
			.until(() -> redis.command("EXISTS", "lock:{statement:alice}").equals("1"));

		assertThat(((Number) statement.join().get("fencingToken")).longValue()).isPositive();
		assertThat(redis.command("EXISTS", "lock:{statement:alice}")).isEqualTo("0");
	}

	private long balance(String account) {
		return ((Number) http().get().uri("/accounts/{id}", account).retrieve().body(Map.class).get("balance"))
			.longValue();
	}

	private long fence(String account) {
		return ((Number) http().get().uri("/accounts/{id}", account).retrieve().body(Map.class).get("fence"))
			.longValue();
	}

	private double acquired(String name) {
		var timer = this.meters.find("locksmith.acquire").tags("name", name, "outcome", "acquired").timer();
		return (timer != null) ? timer.count() : 0;
	}

}
