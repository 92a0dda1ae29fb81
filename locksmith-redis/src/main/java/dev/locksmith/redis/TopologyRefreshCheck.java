package dev.locksmith.redis;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Warns when Locksmith's Lettuce connection to a Redis Cluster never refreshes its view of the
 * cluster: Lettuce then keeps sending the commands of a dead master's slots to it, so after its replica
 * took over every lock call for those slots fails until a restart. (A lock call redirected to a node
 * that joined after it connected refreshes the view itself, see {@link LettuceScriptRunner}.) The
 * auto-configuration turns the refresh on for Spring Boot's own connection factory unless the application
 * chose; this is for one the application built, or whose refresh it turned off.
 */
final class TopologyRefreshCheck {

	private static final Log logger = LogFactory.getLog(TopologyRefreshCheck.class);

	private final RedisConnectionFactory connectionFactory;

	TopologyRefreshCheck(RedisConnectionFactory connectionFactory) {
		this.connectionFactory = connectionFactory;
	}

	/** Warns, and answers false, for a Lettuce cluster connection without adaptive or periodic refresh. */
	boolean check() {
		if (!(this.connectionFactory instanceof LettuceConnectionFactory lettuce) || !lettuce.isClusterAware()) {
			return true;
		}
		ClusterTopologyRefreshOptions refresh = refreshOptions(lettuce);
		boolean refreshes = refresh != null
				&& (refresh.isPeriodicRefreshEnabled() || !refresh.getAdaptiveRefreshTriggers().isEmpty());
		if (!refreshes) {
			logger.warn("The Redis Cluster connection that Locksmith locks on never refreshes its topology: after "
					+ "a master dies and its replica takes over, every lock call for its slots fails until a restart. "
					+ "Set spring.data.redis.lettuce.cluster.refresh.adaptive=true and "
					+ "spring.data.redis.lettuce.cluster.refresh.period (for example 30s), or, on a connection "
					+ "factory the application builds, ClusterClientOptions.topologyRefreshOptions.");
		}
		return refreshes;
	}

	/** How a Lettuce cluster {@code connectionFactory} refreshes its topology; {@code null} when it never does. */
	static @Nullable ClusterTopologyRefreshOptions refreshOptions(LettuceConnectionFactory connectionFactory) {
		ClientOptions options = connectionFactory.getClientConfiguration().getClientOptions().orElse(null);
		return (options instanceof ClusterClientOptions cluster) ? cluster.getTopologyRefreshOptions() : null;
	}

}
