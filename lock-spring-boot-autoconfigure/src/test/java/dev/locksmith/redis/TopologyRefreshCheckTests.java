package dev.locksmith.redis;

import java.time.Duration;
import java.util.List;

import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;

/** The startup check that a cluster connection refreshes its topology; no Redis needed. */
class TopologyRefreshCheckTests {

	private static final RedisClusterConfiguration CLUSTER = new RedisClusterConfiguration(List.of("127.0.0.1:7000"));

	@Test
	void aClusterConnectionWithSpringBootsDefaultsIsReported() {
		assertThat(new TopologyRefreshCheck(new LettuceConnectionFactory(CLUSTER)).check()).isFalse();
	}

	@Test
	void aClusterConnectionWithAdaptiveOrPeriodicRefreshPasses() {
		assertThat(refreshing(ClusterTopologyRefreshOptions.builder().enableAllAdaptiveRefreshTriggers())).isTrue();
		assertThat(refreshing(ClusterTopologyRefreshOptions.builder().enablePeriodicRefresh(Duration.ofSeconds(30))))
			.isTrue();
		assertThat(refreshing(ClusterTopologyRefreshOptions.builder())).isFalse();
	}

	@Test
	void aStandaloneConnectionHasNoTopologyToRefresh() {
		assertThat(new TopologyRefreshCheck(new LettuceConnectionFactory(new RedisStandaloneConfiguration())).check())
			.isTrue();
	}

	private static boolean refreshing(ClusterTopologyRefreshOptions.Builder refresh) {
		LettuceClientConfiguration client = LettuceClientConfiguration.builder()
			.clientOptions(ClusterClientOptions.builder().topologyRefreshOptions(refresh.build()).build())
			.build();
		return new TopologyRefreshCheck(new LettuceConnectionFactory(CLUSTER, client)).check();
	}

}
