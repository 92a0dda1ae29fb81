package dev.locksmith.autoconfigure;

import java.time.Duration;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.data.redis.autoconfigure.LettuceClientOptionsBuilderCustomizer;
import org.springframework.core.Ordered;

/**
 * Turns on Lettuce's adaptive and periodic topology refresh on Spring Boot's Redis Cluster connection
 * when the application set neither {@value #REFRESH}{@code .adaptive} nor {@code .period}: without it, after
 * a master dies and its replica takes over, every call for the master's slots fails until a restart. Runs
 * first, so that the application's own customizers see what it set and have the last word.
 */
final class ClusterTopologyRefreshCustomizer implements LettuceClientOptionsBuilderCustomizer, Ordered {

	/**
	 * What bounds the recovery from a killed master: Lettuce's adaptive trigger (reconnects to it) fires
	 * before the cluster elected its replica, and then not again for 30 s. As long as the default lease: locks
	 * on the master's slots fail for at most the election and one lease. Not shorter, as every refresh
	 * connects to every node.
	 */
	static final Duration PERIOD = Duration.ofSeconds(30);

	static final String REFRESH = "spring.data.redis.lettuce.cluster.refresh";

	private static final Log logger = LogFactory.getLog(ClusterTopologyRefreshCustomizer.class);

	private final Binder binder;

	ClusterTopologyRefreshCustomizer(Binder binder) {
		this.binder = binder;
	}

	@Override
	public void customize(ClientOptions.Builder builder) {
		if (!(builder instanceof ClusterClientOptions.Builder cluster) || isSet("adaptive", Boolean.class)
				|| isSet("period", Duration.class)) {
			return;
		}
		ClusterTopologyRefreshOptions set = cluster.build().getTopologyRefreshOptions();
		cluster.topologyRefreshOptions(ClusterTopologyRefreshOptions.builder()
			.dynamicRefreshSources(set.useDynamicRefreshSources())
			.closeStaleConnections(set.isCloseStaleConnections())
			.adaptiveRefreshTriggersTimeout(set.getAdaptiveRefreshTimeout())
			.refreshTriggersReconnectAttempts(set.getRefreshTriggersReconnectAttempts())
			.enableAllAdaptiveRefreshTriggers()
			.enablePeriodicRefresh(PERIOD)
			.build());
		logger.info("Locksmith turned on the Redis Cluster connection's topology refresh, adaptive and every "
				+ PERIOD.toSeconds() + "s, so that lock calls follow a failover: " + REFRESH + ".adaptive and "
				+ REFRESH + ".period are not set. Set either to choose yourself.");
	}

	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE;
	}

	private boolean isSet(String property, Class<?> type) {
		return this.binder.bind(REFRESH + "." + property, type).isBound();
	}

}
