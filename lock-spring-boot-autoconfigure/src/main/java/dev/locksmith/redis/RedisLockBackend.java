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
	public AcquireResult tryAcquire(List<String> keys, String ownerToken, Duration ttl) {
		List<String> redisKeys = new ArrayList<>(keys.size() * 2);
		keys.stream().map(this.keys::lockKey).forEach(redisKeys::add);
		keys.stream().map(this.keys::fenceKey).forEach(redisKeys::add);
		List<?> result = call("acquire", keys, () -> this.redis.execute(ACQUIRE, redisKeys, ownerToken, millis(ttl),
				millis(FENCE_COUNTER_LIFETIME)));
		if ((Long) result.get(0) == 1L) {
			return AcquireResult.granted(result.subList(1, result.size()).stream().map(Long.class::cast).toList());
		}
		String busyKey = keys.get(((Long) result.get(1)).intValue() - 1);
		return AcquireResult.busy(busyKey, Duration.ofMillis(Math.max(0, (Long) result.get(2))));
	}

	@Override
	public int release(List<String> keys, String ownerToken) {
		List<String> args = new ArrayList<>(keys.size() + 2);
		args.add(ownerToken);
		args.add(this.keys.releaseChannel());
		args.addAll(keys);
		Long released = call("release", keys,
				() -> this.redis.execute(RELEASE, keys.stream().map(this.keys::lockKey).toList(), args.toArray()));
		return released.intValue();
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
		List<?> extended = call("extend", leases.stream().map(LeaseExtension::key).toList(),
				() -> this.redis.execute(EXTEND, lockKeys, args.toArray()));
		return extended.stream().map((flag) -> (Long) flag == 1L).toList();
	}

	private static <T> T call(String operation, List<String> keys, Supplier<T> command) {
		String key = (keys.size() == 1) ? keys.get(0) : keys.size() + " locks";
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
