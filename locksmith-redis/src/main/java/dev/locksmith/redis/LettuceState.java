package dev.locksmith.redis;

import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.cluster.api.async.RedisAdvancedClusterAsyncCommands;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * What Lettuce knows without asking Redis: whether a factory is configured for a cluster, and whether
 * a connection is down (Lettuce is reconnecting it, so a command would only queue until it times out).
 * Only loaded when Lettuce is present.
 */
final class LettuceState {

	private LettuceState() {
	}

	/** Whether a Lettuce {@code connectionFactory} is configured for a cluster; {@code null} for another factory. */
	static @Nullable Boolean clusterAware(RedisConnectionFactory connectionFactory) {
		return (connectionFactory instanceof LettuceConnectionFactory lettuce) ? lettuce.isClusterAware() : null;
	}

	/** Fails at once when {@code nativeConnection} is a Lettuce connection that Lettuce knows is down. */
	static void requireUp(@Nullable Object nativeConnection) {
		StatefulConnection<?, ?> connection = statefulOf(nativeConnection);
		if (connection != null && !connection.isOpen()) {
			throw new RedisConnectionFailureException("connection lost, Lettuce is reconnecting");
		}
	}

	/** The connection under Lettuce's asynchronous commands, asked the way both Lettuce 6 and 7 answer. */
	private static @Nullable StatefulConnection<?, ?> statefulOf(@Nullable Object nativeConnection) {
		if (nativeConnection instanceof RedisAsyncCommands<?, ?> commands) {
			return commands.getStatefulConnection();
		}
		if (nativeConnection instanceof RedisAdvancedClusterAsyncCommands<?, ?> commands) {
			return commands.getStatefulConnection();
		}
		return null;
	}

}
