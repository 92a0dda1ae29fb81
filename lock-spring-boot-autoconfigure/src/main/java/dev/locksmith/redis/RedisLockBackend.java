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
 * server forgot ({@code NOSCRIPT}). On a cluster, an operation on keys of several hash slots runs
 * one script per slot; several locks spanning slots are taken slot by slot and given back when a
 * later slot is busy, so the grant stays all or nothing.
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

	private final HashSlotPartitioner slots;

	public RedisLockBackend(RedisConnectionFactory connectionFactory, RedisLockKeys keys) {
		this.redis = new StringRedisTemplate(connectionFactory);
		this.keys = keys;
		this.slots = new HashSlotPartitioner(this.redis);
	}

	@Override
	public AcquireResult tryAcquire(List<String> keys, String ownerToken, Duration ttl) {
		List<List<Integer>> groups = this.slots.partition(keys.stream().map(this.keys::lockKey).toList());
		if (groups.size() == 1) {
			return acquireInOneSlot(keys, ownerToken, ttl);
		}
		Long[] fencingTokens = new Long[keys.size()];
		List<String> acquired = new ArrayList<>();
		for (List<Integer> group : groups) {
			List<String> slotKeys = group.stream().map(keys::get).toList();
			AcquireResult result = acquireInOneSlot(slotKeys, ownerToken, ttl);
			if (!result.acquired()) {
				if (!acquired.isEmpty()) {
					release(acquired, ownerToken);
				}
				return result;
			}
			acquired.addAll(slotKeys);
			for (int i = 0; i < group.size(); i++) {
				fencingTokens[group.get(i)] = result.fencingTokens().get(i);
			}
		}
		return AcquireResult.granted(List.of(fencingTokens));
	}

	@Override
	public int release(List<String> keys, String ownerToken) {
		int released = 0;
		for (List<Integer> group : this.slots.partition(keys.stream().map(this.keys::lockKey).toList())) {
			released += releaseInOneSlot(group.stream().map(keys::get).toList(), ownerToken);
		}
		return released;
	}

	@Override
	public List<Boolean> extend(List<LeaseExtension> leases) {
		Boolean[] extended = new Boolean[leases.size()];
		for (List<Integer> group : this.slots.partition(leases.stream().map((lease) -> this.keys.lockKey(lease.key())).toList())) {
			List<Boolean> results = extendInOneSlot(group.stream().map(leases::get).toList());
			for (int i = 0; i < group.size(); i++) {
				extended[group.get(i)] = results.get(i);
			}
		}
		return List.of(extended);
	}

	private AcquireResult acquireInOneSlot(List<String> keys, String ownerToken, Duration ttl) {
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

	private int releaseInOneSlot(List<String> keys, String ownerToken) {
		List<String> args = new ArrayList<>(keys.size() + 2);
		args.add(ownerToken);
		args.add(this.keys.releaseChannel());
		args.addAll(keys);
		Long released = call("release", keys,
				() -> this.redis.execute(RELEASE, keys.stream().map(this.keys::lockKey).toList(), args.toArray()));
		return released.intValue();
	}

	private List<Boolean> extendInOneSlot(List<LeaseExtension> leases) {
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
