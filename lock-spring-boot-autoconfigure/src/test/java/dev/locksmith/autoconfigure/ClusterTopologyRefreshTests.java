package dev.locksmith.autoconfigure;

import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions.RefreshTrigger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.LettuceClientOptionsBuilderCustomizer;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.locksmith.core.LockAdministration;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockService;
import dev.locksmith.redis.TestLockKeys;
import dev.locksmith.testing.RedisCluster;
import dev.locksmith.testing.RedisServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

/**
 * Spring Boot's Redis Cluster connection refreshes its topology when the application did not choose how,
 * so locking follows a failover without a restart; explicit settings and connection factories the
 * application built are left alone. One cluster of three masters with a replica each serves every test.
 */
@ExtendWith(OutputCaptureExtension.class)
@Tag("slow")
class ClusterTopologyRefreshTests {

	private static final String TURNED_ON = "Locksmith turned on the Redis Cluster connection's topology refresh";

	private static final String NEVER_REFRESHES = "never refreshes its topology";

	private static final LockOptions OPTIONS = LockOptions.ofTtl(Duration.ofSeconds(5));

	private static final Duration REDIS_TIMEOUT = Duration.ofSeconds(1);

	/** How much longer than the refresh and a lock call the recovery may take on a loaded machine. */
	private static final Duration LOAD_ALLOWANCE = Duration.ofSeconds(3);

	private static RedisCluster cluster;

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, LocksmithAutoConfiguration.class));

	@BeforeAll
	static void startCluster() {
		cluster = RedisCluster.startWithReplicas();
	}

	@AfterAll
	static void stopCluster() {
		cluster.close();
	}

	@Test
	void aClusterConnectionWithNoRefreshSetRefreshesAdaptivelyAndPeriodicallyKeepingItsOtherOptions(
			CapturedOutput output) {
		onCluster().withPropertyValues("spring.data.redis.connect-timeout=3s",
				"spring.data.redis.lettuce.cluster.refresh.dynamic-refresh-sources=false")
			.withBean(LettuceClientOptionsBuilderCustomizer.class,
					() -> (builder) -> ((ClusterClientOptions.Builder) builder).validateClusterNodeMembership(false))
			.run((context) -> {
				ClusterClientOptions options = clusterOptions(context.getBean(LettuceConnectionFactory.class));
				ClusterTopologyRefreshOptions refresh = options.getTopologyRefreshOptions();
				assertThat(refresh.getAdaptiveRefreshTriggers()).isEqualTo(EnumSet.allOf(RefreshTrigger.class));
				assertThat(refresh.isPeriodicRefreshEnabled()).isTrue();
				assertThat(refresh.getRefreshPeriod()).isEqualTo(Duration.ofSeconds(30));
				assertThat(refresh.useDynamicRefreshSources()).as("set by the application").isFalse();
				assertThat(options.getSocketOptions().getConnectTimeout()).isEqualTo(Duration.ofSeconds(3));
				assertThat(options.getTimeoutOptions().isTimeoutCommands()).as("set by Spring Boot").isTrue();
				assertThat(options.isValidateClusterNodeMembership()).as("set by the application's customizer")
					.isFalse();
				assertThat(count(output.getOut(), TURNED_ON)).isOne();
			});
	}

	@Test
	void anAdaptiveOrPeriodicRefreshTheApplicationSetIsLeftAsItIs(CapturedOutput output) {
		refreshWith("adaptive=true", (refresh) -> assertThat(refresh.isPeriodicRefreshEnabled()).isFalse());
		refreshWith("period=10s", (refresh) -> {
			assertThat(refresh.getAdaptiveRefreshTriggers()).as("Lettuce's own default (none before Lettuce 7, all since)")
				.isEqualTo(ClusterTopologyRefreshOptions.DEFAULT_ADAPTIVE_REFRESH_TRIGGERS);
			assertThat(refresh.getRefreshPeriod()).isEqualTo(Duration.ofSeconds(10));
		});
		assertThat(output.getOut()).doesNotContain(TURNED_ON);
	}

	@Test
	void theApplicationsOwnClientOptionsCustomizerHasTheLastWord() {
		ClusterTopologyRefreshOptions own = ClusterTopologyRefreshOptions.builder()
			.enablePeriodicRefresh(Duration.ofMinutes(5))
			.build();
		onCluster()
			.withBean(LettuceClientOptionsBuilderCustomizer.class,
					() -> (builder) -> ((ClusterClientOptions.Builder) builder).topologyRefreshOptions(own))
			.run((context) -> assertThat(
					clusterOptions(context.getBean(LettuceConnectionFactory.class)).getTopologyRefreshOptions())
				.isSameAs(own));
	}

	@Test
	void aClusterConnectionWhoseRefreshTheApplicationTurnedOffStartsWithAWarning(CapturedOutput output) {
		assumeThat(ClusterTopologyRefreshOptions.DEFAULT_ADAPTIVE_REFRESH_TRIGGERS)
			.as("Lettuce 7 refreshes adaptively by default, which the property does not turn off")
			.isEmpty();
		onCluster().withPropertyValues("spring.data.redis.lettuce.cluster.refresh.adaptive=false").run((context) -> {
			ClusterTopologyRefreshOptions refresh = clusterOptions(context.getBean(LettuceConnectionFactory.class))
				.getTopologyRefreshOptions();
			assertThat(refresh.getAdaptiveRefreshTriggers()).isEmpty();
			assertThat(refresh.isPeriodicRefreshEnabled()).isFalse();
			await().atMost(Duration.ofSeconds(10)).until(() -> output.getOut().contains(NEVER_REFRESHES));
		});
	}

	@Test
	void aConnectionFactoryTheApplicationBuiltIsLeftAlone(CapturedOutput output) {
		this.runner.withUserConfiguration(OwnClusterConnection.class)
			.run((context) -> await().atMost(Duration.ofSeconds(10))
				.until(() -> output.getOut().contains(NEVER_REFRESHES)));
		assertThat(output.getOut()).doesNotContain(TURNED_ON);
	}

	@Test
	void aStandaloneConnectionIsLeftAlone(CapturedOutput output) {
		this.runner.withPropertyValues("spring.data.redis.port=" + cluster.nodes().get(0).port()).run((context) -> {
			assertThat(context.getBean(LettuceConnectionFactory.class).getClientConfiguration().getClientOptions())
				.get()
				.isNotInstanceOf(ClusterClientOptions.class);
		});
		assertThat(output.getOut()).doesNotContain(TURNED_ON);
	}

	@Test
	void aLockOnAKilledMastersSlotsIsTakenAgainOnceItsReplicaTookOverWithNoRefreshSet() {
		onCluster().withPropertyValues("locksmith.redis-timeout=" + REDIS_TIMEOUT.toMillis() + "ms").run((context) -> {
			LockService locks = context.getBean(LockService.class);
			String key = "account";
			RedisServer master = cluster.nodeServing(TestLockKeys.lockKey(key));
			RedisServer replica = cluster.replicaOf(master);
			locks.tryAcquire(key, OPTIONS).orElseThrow().close();

			cluster.kill(master);
			// Lettuce's adaptive trigger fired at the first reconnects, before the election, and then waits 30 s:
			// the periodic refresh is what bounds the recovery.
			LockHandle handle = await()
				.atMost(ClusterTopologyRefreshCustomizer.PERIOD.plus(REDIS_TIMEOUT).plus(LOAD_ALLOWANCE))
				.ignoreExceptions()
				.until(() -> locks.tryAcquire(key, OPTIONS).orElse(null), (held) -> held != null);
			try (handle) {
				assertThat(replica.command("EXISTS", TestLockKeys.lockKey(key))).as("locked on the elected replica")
					.isEqualTo("1");
			}
			LockAdministration administration = context.getBean(LockAdministration.class);
			await().atMost(Duration.ofSeconds(5))
				.untilAsserted(() -> assertThat(topology(administration)).containsEntry("masters", 3L)
					.containsEntry("failed", 1L)
					.containsEntry("refresh", "adaptive, every 30s"));
		});
	}

	private ApplicationContextRunner onCluster() {
		return this.runner.withPropertyValues("spring.data.redis.cluster.nodes=" + clusterNodes());
	}

	private void refreshWith(String property, Consumer<ClusterTopologyRefreshOptions> check) {
		onCluster().withPropertyValues("spring.data.redis.lettuce.cluster.refresh." + property)
			.run((context) -> check.accept(
					clusterOptions(context.getBean(LettuceConnectionFactory.class)).getTopologyRefreshOptions()));
	}

	private static String clusterNodes() {
		return cluster.nodes().stream().map((node) -> "127.0.0.1:" + node.port()).collect(Collectors.joining(","));
	}

	private static ClusterClientOptions clusterOptions(LettuceConnectionFactory connectionFactory) {
		return (ClusterClientOptions) connectionFactory.getClientConfiguration().getClientOptions().orElseThrow();
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> topology(LockAdministration administration) {
		return (Map<String, Object>) administration.storeDetails().get("topology");
	}

	private static long count(String text, String part) {
		return text.split(Pattern.quote(part), -1).length - 1;
	}

	@Configuration(proxyBeanMethods = false)
	static class OwnClusterConnection {

		@Bean
		RedisConnectionFactory redisConnectionFactory() {
			return new LettuceConnectionFactory(new RedisClusterConfiguration(List.of(clusterNodes().split(","))));
		}

	}

}
