package dev.locksmith.redis;

import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode.NodeFlag;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * The Redis Cluster as Locksmith's Lettuce connection sees it, for health: the masters that serve
 * slots, the replicas, how the view is refreshed, and when it was last refreshed. Lettuce loads a new
 * view on every refresh; Locksmith notices it when asked, so the time is that of the first look at
 * the new view, never earlier than the refresh. Asks Redis nothing.
 */
final class ClusterTopology {

	private final LettuceConnectionFactory connectionFactory;

	private final Clock clock;

	/** The first node of the view last seen, and when it was first seen: every refresh loads new nodes. */
	private final AtomicReference<@Nullable Seen> seen = new AtomicReference<>();

	ClusterTopology(LettuceConnectionFactory connectionFactory, Clock clock) {
		this.connectionFactory = connectionFactory;
		this.clock = clock;
	}

	/** The topology of a Lettuce cluster {@code connectionFactory}, else {@code null}. */
	static @Nullable ClusterTopology of(RedisConnectionFactory connectionFactory) {
		return (connectionFactory instanceof LettuceConnectionFactory lettuce && lettuce.isClusterAware())
				? new ClusterTopology(lettuce, Clock.systemUTC()) : null;
	}

	/**
	 * {@code masters} (serving slots), {@code replicas}, {@code failed} nodes, {@code refresh} (how Lettuce
	 * refreshes the view) and {@code refreshedAt}; empty before the connection first loaded the cluster.
	 */
	Map<String, Object> details() {
		if (!(this.connectionFactory.getNativeClient() instanceof RedisClusterClient client)) {
			return Map.of();
		}
		List<RedisClusterNode> nodes = client.getPartitions().getPartitions();
		if (nodes.isEmpty()) {
			return Map.of();
		}
		RedisClusterNode first = nodes.get(0);
		Seen view = this.seen.updateAndGet(
				(last) -> (last != null && last.first() == first) ? last : new Seen(first, this.clock.instant()));
		Map<String, Object> details = new LinkedHashMap<>();
		details.put("masters", nodes.stream().filter((node) -> isLive(node) && node.is(NodeFlag.UPSTREAM)
				&& !node.hasNoSlots()).count());
		details.put("replicas", nodes.stream().filter((node) -> isLive(node) && node.is(NodeFlag.REPLICA)).count());
		details.put("failed", nodes.stream().filter((node) -> !isLive(node)).count());
		details.put("refresh", describe(TopologyRefreshCheck.refreshOptions(this.connectionFactory)));
		details.put("refreshedAt", view.at());
		return Map.of("topology", details);
	}

	private static boolean isLive(RedisClusterNode node) {
		return !node.is(NodeFlag.FAIL) && !node.is(NodeFlag.EVENTUAL_FAIL);
	}

	private static String describe(@Nullable ClusterTopologyRefreshOptions refresh) {
		boolean adaptive = refresh != null && !refresh.getAdaptiveRefreshTriggers().isEmpty();
		boolean periodic = refresh != null && refresh.isPeriodicRefreshEnabled();
		String every = periodic ? "every " + refresh.getRefreshPeriod().toSeconds() + "s" : "";
		return adaptive ? (periodic ? "adaptive, " + every : "adaptive") : (periodic ? every : "never");
	}

	private record Seen(RedisClusterNode first, Instant at) {
	}

}
