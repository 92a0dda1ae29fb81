package dev.locksmith.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import org.springframework.core.io.ClassPathResource;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

import dev.locksmith.core.LockBackend;
import dev.locksmith.core.LockUnavailableException;

/**
 * {@link LockBackend} on one Redis deployment (standalone, Sentinel or Cluster) through Spring Data
 * Redis. Each operation is one Lua script; Spring's script executor re-sends a script that the
 * server forgot ({@code NOSCRIPT}).
 *
 * @since 0.1.0
 */
public final class RedisLockBackend implements LockBackend {

	/** How long a fencing counter outlives its last grant; the server clock floor covers the rest. */
	static final Duration FENCE_COUNTER_LIFETIME = Duration.ofHours(1);

	private static final RedisScript<List> ACQUIRE = script("acquire.lua");

	private static final RedisScript<Long> RELEASE = RedisScript
		.of(new ClassPathResource("dev/locksmith/redis/release.lua"), Long.class);

	private static final RedisScript<List> EXTEND = script("extend.lua");

	private final StringRedisTemplate redis;

	private final RedisLockKeys keys;

	public RedisLockBackend(RedisConnectionFactory connectionFactory, RedisLockKeys keys) {
		this.redis = new StringRedisTemplate(connectionFactory);
		this.keys = keys;
	}

	@Override
	public AcquireResult tryAcquire(String key, String ownerToken, Duration ttl) {
		List<?> result = call("acquire", key, () -> this.redis.execute(ACQUIRE,
				List.of(this.keys.lockKey(key), this.keys.fenceKey(key)), ownerToken, millis(ttl),
				millis(FENCE_COUNTER_LIFETIME)));
		long value = (Long) result.get(1);
		if ((Long) result.get(0) == 1L) {
			return AcquireResult.granted(value);
		}
		return AcquireResult.busy(Duration.ofMillis(Math.max(0, value)));
	}

	@Override
	public boolean release(String key, String ownerToken) {
		Long released = call("release", key, () -> this.redis.execute(RELEASE, List.of(this.keys.lockKey(key)),
				ownerToken, this.keys.releaseChannel(), key));
		return released != null && released == 1L;
	}

	@Override
	public List<Boolean> extend(List<LeaseExtension> leases) {
		List<String> lockKeys = new ArrayList<>(leases.size());
		List<String> args = new ArrayList<>(leases.size() * 2);
		for (LeaseExtension lease : leases) {
			lockKeys.add(this.keys.lockKey(lease.key()));
			args.add(lease.ownerToken());
			args.add(millis(lease.ttl()));
		}
		String what = (leases.size() == 1) ? leases.get(0).key() : leases.size() + " locks";
		List<?> extended = call("extend", what, () -> this.redis.execute(EXTEND, lockKeys, args.toArray()));
		return extended.stream().map((flag) -> (Long) flag == 1L).toList();
	}

	private static <T> T call(String operation, String key, Supplier<T> command) {
		try {
			T result = command.get();
			if (result == null) {
				throw new LockUnavailableException("Redis returned no result for " + operation + " of '" + key + "'",
						null);
			}
			return result;
		}
		catch (DataAccessException ex) {
			throw new LockUnavailableException("Redis failed " + operation + " of '" + key + "': " + ex.getMessage(), ex);
		}
	}

	private static String millis(Duration duration) {
		return Long.toString(duration.toMillis());
	}

	private static RedisScript<List> script(String name) {
		return RedisScript.of(new ClassPathResource("dev/locksmith/redis/" + name), List.class);
	}

}
