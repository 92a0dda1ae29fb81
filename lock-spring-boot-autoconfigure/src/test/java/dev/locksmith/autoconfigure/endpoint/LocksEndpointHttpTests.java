package dev.locksmith.autoconfigure.endpoint;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.web.client.RestClient;

import dev.locksmith.annotation.LockMode;
import dev.locksmith.core.DefaultLockService;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockService;
import dev.locksmith.redis.RedisLockStore;
import dev.locksmith.testing.RedisServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * The {@code locks} endpoint over real HTTP on a real Redis: a key that readers or permit holders share
 * lists its mode, its permits and each holder with its own remaining lease, with keys masked unless
 * {@code management.endpoint.locks.show-values} shows them; forced releases of odd keys answer clearly.
 */
class LocksEndpointHttpTests {

	private static final LockOptions REPORT = LockOptions.ofTtl(Duration.ofSeconds(30)).withName("report");

	private static RedisServer redis;

	private static LettuceConnectionFactory otherConnections;

	private static DefaultLockService otherInstance;

	private ConfigurableApplicationContext application;

	@BeforeAll
	static void startRedisAndAnotherInstance() {
		redis = RedisServer.start();
		otherConnections = redis.connectionFactory();
		otherInstance = DefaultLockService.builder(RedisLockStore.builder(otherConnections).build())
			.instanceId("other")
			.build();
	}

	@AfterAll
	static void stopRedis() {
		otherInstance.close();
		otherConnections.destroy();
		redis.close();
	}

	@AfterEach
	void stopApplication() {
		if (this.application != null) {
			this.application.close();
		}
		redis.command("FLUSHALL");
	}

	private RestClient start(String... properties) {
		this.application = new SpringApplicationBuilder(EndpointApplication.class)
			.properties("server.port=0", "spring.data.redis.port=" + redis.port(), "locksmith.instance-id=app",
					"management.endpoints.web.exposure.include=locks", "spring.main.banner-mode=off")
			.properties(properties)
			.run();
		int port = ((WebServerApplicationContext) this.application).getWebServer().getPort();
		return RestClient.builder().baseUrl("http://127.0.0.1:" + port).build();
	}

	@Test
	void aKeySharedByReadersListsEachReaderWithItsOwnLease() throws Exception {
		RestClient http = start("management.endpoint.locks.show-values=always");
		LockService locks = this.application.getBean(LockService.class);
		try (LockHandle mine = locks.acquire("report:7", REPORT.withMode(LockMode.READ));
				LockHandle theirs = otherInstance.acquire("report:7",
						REPORT.withMode(LockMode.READ).withTtl(Duration.ofSeconds(10)))) {
			Map<String, Object> lock = single(http, "/actuator/locks?scope=cluster");
			assertThat(lock).containsEntry("name", "report")
				.containsEntry("key", "report:7")
				.containsEntry("mode", "READ")
				.containsEntry("permits", 1)
				.containsEntry("holderInstance", "app");
			assertThat(holders(lock)).extracting((holder) -> holder.get("instance")).containsExactly("other", "app");
			assertThat(leaseMillis(holders(lock).get(0))).as("the other reader's own lease").isBetween(1L, 10_000L);
			assertThat(leaseMillis(holders(lock).get(1))).as("this reader's own lease").isBetween(10_001L, 30_000L);

			assertThat(single(http, "/actuator/locks")).containsEntry("mode", "READ").containsEntry("permits", 1);
		}
	}

	@Test
	void aKeyHeldByPermitsListsItsHoldersAsPermitsWithTheKeyMasked() throws Exception {
		RestClient http = start();
		LockService locks = this.application.getBean(LockService.class);
		try (LockHandle first = locks.acquire("report:8", REPORT.withPermits(3));
				LockHandle second = locks.acquire("report:8", REPORT.withPermits(3));
				LockHandle third = otherInstance.acquire("report:8", REPORT.withPermits(3))) {
			Map<String, Object> lock = single(http, "/actuator/locks?scope=cluster");
			assertThat(lock).containsEntry("key", "report:******")
				.containsEntry("mode", "PERMIT")
				.containsEntry("permits", 3);
			assertThat(holders(lock)).extracting((holder) -> holder.get("instance"))
				.containsExactlyInAnyOrder("app", "app", "other");
			// this instance's view: each of its two permits, as a permit
			assertThat(locks(http, "/actuator/locks")).hasSize(2)
				.allSatisfy((held) -> assertThat(held).containsEntry("key", "report:******")
					.containsEntry("mode", "PERMIT")
					.containsEntry("permits", 3));
		}
	}

	@Test
	void anExclusiveLockListsItsOneHolder() throws Exception {
		RestClient http = start();
		try (LockHandle held = otherInstance.acquire("report:9", REPORT)) {
			Map<String, Object> lock = single(http, "/actuator/locks?scope=cluster");
			assertThat(lock).containsEntry("mode", "WRITE").containsEntry("permits", 1);
			assertThat(holders(lock)).singleElement().satisfies((holder) -> {
				assertThat(holder).containsEntry("instance", "other");
				assertThat(leaseMillis(holder)).isBetween(1L, 30_000L);
			});
		}
	}

	/**
	 * The cluster view's waiters over HTTP: each with its instance, name, thread, how long it waited, how
	 * long it may still wait and whether parked; the {@code waiters} query parameter bounds them, and a
	 * negative one is a bad request.
	 */
	@Test
	void theClusterViewListsAnotherInstancesWaiterAndTheQueryParameterBoundsThem() throws Exception {
		RestClient http = start("locksmith.redis-timeout=10s");
		LockHandle held = this.application.getBean(LockService.class).acquire("report:11", REPORT);
		ExecutorService waiting = Executors.newSingleThreadExecutor();
		try {
			waiting.submit(() -> otherInstance.acquire("report:11", REPORT.withWaitTime(Duration.ofSeconds(30))));
			await().atMost(Duration.ofSeconds(30)).until(() -> waiters(single(http, "/actuator/locks?scope=cluster")).size() == 1);

			@SuppressWarnings("unchecked")
			Map<String, Object> view = http.get().uri("/actuator/locks?scope=cluster&waiters=1").retrieve().body(Map.class);
			assertThat((Map<String, Object>) view.get("waits")).containsEntry("listed", true)
				.containsEntry("waiting", 1)
				.containsEntry("shown", 1)
				.containsEntry("deadlocks", List.of());
			Map<String, Object> lock = single(http, "/actuator/locks?scope=cluster&waiters=1");
			assertThat(((Number) lock.get("fencingToken")).longValue()).isEqualTo(held.fencingToken());
			assertThat(waiters(lock)).singleElement().satisfies((waiter) -> {
				assertThat(waiter).containsEntry("instance", "other").containsEntry("name", "report")
					.containsEntry("parked", false)
					.containsKeys("thread", "waitingForMillis", "waitLeftMillis");
				assertThat(((Number) waiter.get("waitLeftMillis")).longValue()).isBetween(1L, 30_000L);
			});
			assertThat(waiters(single(http, "/actuator/locks?scope=cluster&waiters=0"))).isEmpty();
			http.get().uri("/actuator/locks?scope=cluster&waiters=-1").exchange((request, response) -> {
				assertThat(response.getStatusCode().value()).isEqualTo(400);
				return null;
			});
		}
		finally {
			waiting.shutdownNow();
			held.close();
		}
	}

	/**
	 * {@code DELETE /actuator/locks/{key}} with odd keys, each held by another instance unless absent: a
	 * key the endpoint can read is released whoever holds it, keeping its fencing counter; one the web
	 * server refuses (longer than its request line, or with an encoded '/') is answered 400 and its holder
	 * keeps the lock. A bystander's lock is never touched.
	 */
	@ParameterizedTest(name = "{0}")
	@MethodSource("forcedReleases")
	void aForcedReleaseAnswersClearlyAndTouchesOnlyItsKey(String row, String key, boolean held, int status,
			boolean released) throws Exception {
		RestClient http = start("management.endpoint.locks.access=unrestricted");
		try (LockHandle bystander = otherInstance.acquire("bystander", REPORT)) {
			long token = held ? otherInstance.acquire(key, REPORT).fencingToken() : 0;

			http.delete().uri("/actuator/locks/{key}", key).exchange((request, response) -> {
				assertThat(response.getStatusCode().value()).isEqualTo(status);
				if (status == 200) {
					assertThat(response.bodyTo(Map.class)).containsEntry("key", key).containsEntry("released", released);
				}
				return null;
			});
			assertThat(otherInstance.isLocked(key)).as("still held").isEqualTo(held && !released);
			assertThat(otherInstance.isLocked("bystander")).as("the bystander's lock").isTrue();
			if (released) {
				try (LockHandle next = otherInstance.acquire(key, REPORT)) {
					assertThat(next.fencingToken()).as("the next holder's token").isGreaterThan(token);
				}
			}
		}
	}

	static Stream<Arguments> forcedReleases() {
		return Stream.of(arguments("absent", "nobody", false, 200, false),
				arguments("held by another instance", "job:7", true, 200, true),
				arguments("2,000 characters", "x".repeat(2_000), true, 200, true),
				arguments("20,000 characters, past the request line", "x".repeat(20_000), true, 400, false),
				arguments("an encoded slash", "tenant/42", true, 400, false),
				arguments("braces", "{a}", true, 200, true),
				arguments("query and fragment characters", "a?b=c#d", true, 200, true),
				arguments("percent and blanks", "50% a b", true, 200, true),
				arguments("Unicode", "\u043a\u043b\u044e\u0447\uD83D\uDD12", true, 200, true));
	}

	/** The one lock that the endpoint at {@code uri} lists. */
	private static Map<String, Object> single(RestClient http, String uri) {
		List<Map<String, Object>> listed = locks(http, uri);
		assertThat(listed).hasSize(1);
		return listed.get(0);
	}

	/** The locks that the endpoint at {@code uri} lists. */
	@SuppressWarnings("unchecked")
	private static List<Map<String, Object>> locks(RestClient http, String uri) {
		return (List<Map<String, Object>>) http.get().uri(uri).retrieve().body(Map.class).get("locks");
	}

	@SuppressWarnings("unchecked")
	private static List<Map<String, Object>> waiters(Map<String, Object> lock) {
		return (List<Map<String, Object>>) lock.get("waiters");
	}

	@SuppressWarnings("unchecked")
	private static List<Map<String, Object>> holders(Map<String, Object> lock) {
		return (List<Map<String, Object>>) lock.get("holders");
	}

	private static long leaseMillis(Map<String, Object> holder) {
		return ((Number) holder.get("remainingLeaseMillis")).longValue();
	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class EndpointApplication {

	}

}
