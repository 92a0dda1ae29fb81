package dev.locksmith.redis;

import io.lettuce.core.api.async.BaseRedisAsyncCommands;
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
		if (nativeConnection instanceof BaseRedisAsyncCommands<?, ?> commands && !commands.isOpen()) {
			throw new RedisConnectionFailureException("connection lost, Lettuce is reconnecting");
		}
	}

}
