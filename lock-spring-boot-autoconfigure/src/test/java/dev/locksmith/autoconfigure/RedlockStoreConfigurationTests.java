package dev.locksmith.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import io.lettuce.core.RedisClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.connection.RedisConnectionFactory;

import dev.locksmith.actuate.LocksHealthIndicator;
import dev.locksmith.autoconfigure.health.LocksHealthContributorAutoConfiguration;
import dev.locksmith.core.LockStore;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockService;
import dev.locksmith.redis.RedisLockStore;
import dev.locksmith.redis.RedlockLockStore;
import dev.locksmith.redis.TestLockKeys;
import dev.locksmith.testing.FakeClock;
import dev.locksmith.testing.RedisServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

/** The Redlock store (locksmith.store=redlock): when it applies, what it builds, and how bad settings stop the startup. */
class RedlockStoreConfigurationTests {

	private static List<RedisServer> servers;

	/** No Redis listens at spring.data.redis: Redlock must not need the application's own Redis. */
	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, LocksmithAutoConfiguration.class,
				LocksHealthContributorAutoConfiguration.class))
		.withPropertyValues("spring.data.redis.port=" + RedisServer.freePort(), "locksmith.redis-timeout=1s");

	/** Neither spring.data.redis nor its auto-configuration: no RedisConnectionFactory at all. */
	private final ApplicationContextRunner withoutDataRedis = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(LocksmithAutoConfiguration.class));

	@BeforeAll
	static void startServers() {
		servers = IntStream.range(0, 3).mapToObj((i) -> RedisServer.start()).toList();
	}

	@AfterAll
	static void stopServers() {
		servers.forEach(RedisServer::close);
	}

	@Test
	void locksOnEveryConfiguredServerWithLocksmithStoreRedlock() {
		this.runner.withPropertyValues("locksmith.store=redlock", nodes(servers)).run((context) -> {
			assertThat(context).hasSingleBean(LockService.class);
			assertThat(context.getBean(LockStore.class)).isSameAs(context.getBean(RedlockLockStore.class));
			context.getBean(LockService.class).runLocked("orders:1", LockOptions.ofTtl(Duration.ofSeconds(30)),
					() -> assertThat(servers).allSatisfy(
							(server) -> assertThat(server.command("EXISTS", TestLockKeys.lockKey("orders:1"))).isEqualTo("1")));
		});
	}

	@Test
	void startsWithoutTheApplicationsRedis() {
		this.withoutDataRedis.withPropertyValues("locksmith.store=redlock", nodes(servers)).run((context) -> {
				assertThat(context).hasNotFailed().doesNotHaveBean(RedisConnectionFactory.class);
				assertThat(context.getBean(LockStore.class)).isSameAs(context.getBean(RedlockLockStore.class));
				LockService locks = context.getBean(LockService.class);
				locks.runLocked("orders:2", locks.options(), () -> assertThat(servers).allSatisfy(
						(server) -> assertThat(server.command("EXISTS", TestLockKeys.lockKey("orders:2"))).isEqualTo("1")));
			});
	}

	@Test
	void withoutLettuceStopsTheStartupSayingWhatItNeeds() {
		this.withoutDataRedis
			.withClassLoader(new FilteredClassLoader(RedisClient.class))
			.withPropertyValues("locksmith.store=redlock", nodes(servers))
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure())
					.hasStackTraceContaining("No LockService could be set up for locksmith.store=redlock")
					.hasStackTraceContaining("locksmith.redlock.nodes");
			});
	}

	@Test
	void keepsTheApplicationsRedisUnlessLocksmithStoreIsRedlock() {
		this.runner.withPropertyValues(nodes(servers))
			.run((context) -> assertThat(context.getBean(LockStore.class))
				.isSameAs(context.getBean(RedisLockStore.class)));
	}

	@Test
	void healthShowsEachServerAndTurnsDownWithoutAQuorum() {
		List<RedisServer> own = IntStream.range(0, 3).mapToObj((i) -> RedisServer.start()).toList();
		try {
			this.runner.withPropertyValues("locksmith.store=redlock", nodes(own)).run((context) -> {
				LocksHealthIndicator indicator = context.getBean(LocksHealthIndicator.class);
				await("the first connections").until(() -> indicator.health().getStatus().equals(Status.UP));
				Health all = indicator.health();
				assertThat(all.getDetails()).containsEntry("store", "redlock (quorum 2 of 3)");
				assertThat(nodeStates(all)).hasSize(3).allSatisfy((node, state) -> assertThat(state).isEqualTo("UP"));

				own.get(0).kill();
				Health one = indicator.health();
				assertThat(one.getStatus()).isEqualTo(Status.UP);
				assertThat(nodeStates(one).get("127.0.0.1:" + own.get(0).port())).startsWith("DOWN (connection");

				own.get(1).kill();
				Health none = indicator.health();
				assertThat(none.getStatus()).isEqualTo(Status.DOWN);
				assertThat(nodeStates(none).get("127.0.0.1:" + own.get(2).port())).isEqualTo("UP");
				assertThat(none.getDetails()).containsEntry("error", "no quorum (1 of 3)");
			});
		}
		finally {
			own.forEach(RedisServer::close);
		}
	}

	@Test
	void healthShowsEachServersClockOffsetAndStaysUpWithAWarningWhenTwoDisagree() {
		assumeThat(FakeClock.library()).as("libfaketime").isPresent();
		try (FakeClock clock = FakeClock.create(); RedisServer behind = RedisServer.start(clock)) {
			clock.step(Duration.ofSeconds(-3));
			List<RedisServer> nodes = List.of(servers.get(0), servers.get(1), behind);
			this.runner.withPropertyValues("locksmith.store=redlock", nodes(nodes), "locksmith.default-ttl=10s")
				.run((context) -> {
					LocksHealthIndicator indicator = context.getBean(LocksHealthIndicator.class);
					await("the first connections").until(() -> indicator.health().getStatus().equals(Status.UP));
					Health health = indicator.health();

					assertThat(health.getStatus()).isEqualTo(Status.UP);
					Map<String, String> offsets = clockOffsets(health);
					assertThat(offsets).containsOnlyKeys(nodeStates(health).keySet());
					assertThat(millis(offsets.get("127.0.0.1:" + behind.port()))).isBetween(-3_100L, -2_900L);
					assertThat(millis(offsets.get("127.0.0.1:" + servers.get(0).port()))).isBetween(-100L, 100L);
					assertThat(health.getDetails().get("clockWarning").toString())
						.contains(" and 127.0.0.1:" + behind.port() + " are at least ")
						.contains("more than the 102ms (1% of the shortest ttl, 10000ms, plus 2ms) that Redlock allows");
				});
		}
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|', textBlock = """
			redis://localhost:1,redis://localhost:2 | locksmith.redlock.nodes must name 3 or 5 independent Redis servers | names 2
			'' | locksmith.redlock.nodes must name 3 or 5 | names 0
			redis://a:1,redis://b:1,redis://c:1,redis://d:1 | locksmith.redlock.nodes must name 3 or 5 | names 4
			redis://a:1,localhost:6379,redis://c:1 | locksmith.redlock.nodes[1] must be a redis:// or rediss:// URL | expected redis://
			redis://a:1,redis://b:1,redis://a:1 | locksmith.redlock.nodes[2] names the same server as locksmith.redlock.nodes[0] | a:1
			redis://a:1,redis://b:x,redis://c:1 | locksmith.redlock.nodes[1] is not a valid Redis URL | expected redis://
			""")
	void badNodesStopTheStartupNamingTheProperty(String urls, String message, String detail) {
		this.runner.withPropertyValues("locksmith.store=redlock", "locksmith.redlock.nodes=" + urls).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).hasStackTraceContaining(message).hasStackTraceContaining(detail);
		});
	}

	@ParameterizedTest(name = "{0}")
	@CsvSource({ "locksmith.redlock.node-timeout, nodeTimeout",
			"locksmith.redis.max-reconnect-delay, maxReconnectDelay" })
	void aZeroDurationStopsTheStartupNamingTheProperty(String property, String name) {
		this.runner.withPropertyValues("locksmith.store=redlock", nodes(servers), property + "=0ms")
			.run((context) -> assertThat(context.getStartupFailure()).hasStackTraceContaining(
					"Property " + property + " with value 'PT0S' is invalid: " + name + " must be at least 1ms"));
	}

	private static String nodes(List<RedisServer> servers) {
		return "locksmith.redlock.nodes=" + String.join(",",
				servers.stream().map((server) -> "redis://127.0.0.1:" + server.port()).toList());
	}

	@SuppressWarnings("unchecked")
	private static Map<String, String> clockOffsets(Health health) {
		return (Map<String, String>) health.getDetails().get("clockOffsets");
	}

	private static long millis(String offset) {
		return Long.parseLong(offset.replace("ms", "").replace("+", ""));
	}

	@SuppressWarnings("unchecked")
	private static Map<String, String> nodeStates(Health health) {
		return (Map<String, String>) health.getDetails().get("nodes");
	}

}
