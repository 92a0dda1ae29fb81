package dev.locksmith.redis;

import java.util.List;

import org.jspecify.annotations.Nullable;
import org.springframework.core.io.ClassPathResource;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * A protected resource kept in Redis that enforces fencing: a write carries the fencing token of the
 * lock its writer holds, and is applied only when that token is at least the highest one the value
 * has seen. A holder whose lease ran out while it was paused is rejected once a newer holder wrote.
 *
 * @since 0.1.0
 */
public final class RedisFencedValues {

	private static final RedisScript<Long> WRITE = RedisScript
		.of(new ClassPathResource("dev/locksmith/redis/fenced-write.lua"), Long.class);

	private final StringRedisTemplate redis;

	public RedisFencedValues(RedisConnectionFactory connectionFactory) {
		this.redis = new StringRedisTemplate(connectionFactory);
	}

	/**
	 * Writes {@code value} under {@code key} unless a write with a higher fencing token came first.
	 * @return whether the write was applied; false means it was rejected as stale
	 */
	public boolean write(String key, String value, long fencingToken) {
		Long applied = this.redis.execute(WRITE, List.of(key), value, Long.toString(fencingToken));
		return applied != null && applied == 1L;
	}

	/** The value last written under {@code key}, or {@code null}. */
	public @Nullable String read(String key) {
		Object value = this.redis.opsForHash().get(key, "value");
		return (value != null) ? value.toString() : null;
	}

	/** The highest fencing token that a write under {@code key} carried, or 0. */
	public long highestToken(String key) {
		Object token = this.redis.opsForHash().get(key, "fence");
		return (token != null) ? Long.parseLong(token.toString()) : 0;
	}

}
