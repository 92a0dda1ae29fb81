package dev.locksmith.redis;

import java.util.List;

import org.jspecify.annotations.Nullable;
import org.springframework.core.io.ClassPathResource;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

import dev.locksmith.core.FencedValues;

/**
 * {@link FencedValues} kept in Redis: each key holds a hash with the fields {@code value} and
 * {@code fence}, and a script compares and writes them in one step.
 *
 * @since 0.1.0
 */
public final class RedisFencedValues implements FencedValues {

	private static final RedisScript<Long> WRITE = RedisScript
		.of(new ClassPathResource("dev/locksmith/redis/fenced-write.lua"), Long.class);

	private final StringRedisTemplate redis;

	public RedisFencedValues(RedisConnectionFactory connectionFactory) {
		this.redis = new StringRedisTemplate(connectionFactory);
	}

	@Override
	public boolean write(String key, String value, long fencingToken) {
		Long applied = this.redis.execute(WRITE, List.of(key), value, Long.toString(fencingToken));
		return applied != null && applied == 1L;
	}

	@Override
	public @Nullable String read(String key) {
		Object value = this.redis.opsForHash().get(key, "value");
		return (value != null) ? value.toString() : null;
	}

	@Override
	public long highestToken(String key) {
		Object token = this.redis.opsForHash().get(key, "fence");
		return (token != null) ? Long.parseLong(token.toString()) : 0;
	}

}
