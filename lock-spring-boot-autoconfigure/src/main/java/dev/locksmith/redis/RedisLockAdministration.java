package dev.locksmith.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.Cursor;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.ScanOptions;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.locksmith.core.LockAdministration;
import dev.locksmith.core.LockUnavailableException;

/**
 * {@link LockAdministration} on Redis: finds locks with {@code SCAN} on the key prefix (never
 * {@code KEYS}), reads who holds them from their owner tokens, and force-releases with a script. A ping
 * fails at once while Lettuce knows the connection is down.
 *
 * @since 0.1.0
 */
public final class RedisLockAdministration implements LockAdministration {

	private final StringRedisTemplate redis;

	private final RedisLockKeys keys;

	private final ScriptArguments arguments;

	private volatile @Nullable String storeDescription;

	public RedisLockAdministration(RedisConnectionFactory connectionFactory, RedisLockKeys keys) {
		this(connectionFactory, keys, RedisLockBackend.DEFAULT_CLAIM_LEASE);
	}

	/** An administration whose forced releases give the next waiter {@code claimLease} to take the lock. */
	public RedisLockAdministration(RedisConnectionFactory connectionFactory, RedisLockKeys keys, Duration claimLease) {
		this.redis = new StringRedisTemplate(connectionFactory);
		this.keys = keys;
		this.arguments = new ScriptArguments(keys, claimLease);
		Boolean cluster = RedisLockBackend.LETTUCE_PRESENT ? LettuceState.clusterAware(connectionFactory) : null;
		this.storeDescription = (cluster != null) ? describe(cluster) : null;
	}

	/**
	 * {@code redis-cluster} or {@code redis-standalone}: known from a Lettuce factory's configuration,
	 * else once a connection was made, {@code redis} before; the same whether Redis is up or down.
	 */
	@Override
	public String storeDescription() {
		String description = this.storeDescription;
		if (description == null) {
			try {
				description = this.redis.execute((RedisCallback<String>) RedisLockAdministration::describe);
				this.storeDescription = description;
			}
			catch (DataAccessException ex) {
				return "redis";
			}
		}
		return (description != null) ? description : "redis";
	}

	@Override
	public void ping() {
		call(() -> this.redis.execute((RedisCallback<String>) (connection) -> {
			if (RedisLockBackend.LETTUCE_PRESENT) {
				LettuceState.requireUp(connection.getNativeConnection());
			}
			this.storeDescription = describe(connection);
			return connection.ping();
		}));
	}

	private static String describe(RedisConnection connection) {
		return describe(connection instanceof RedisClusterConnection);
	}

	private static String describe(boolean cluster) {
		return cluster ? "redis-cluster" : "redis-standalone";
	}

	@Override
	public List<StoredLock> storedLocks(int limit) {
		return call(() -> {
			List<String> lockKeys = new ArrayList<>();
			ScanOptions pattern = ScanOptions.scanOptions().match(this.keys.lockKeyPattern()).count(500).build();
			try (Cursor<String> cursor = this.redis.scan(pattern)) {
				while (cursor.hasNext() && lockKeys.size() < limit) {
					lockKeys.add(cursor.next());
				}
			}
			return describe(lockKeys);
		});
	}

	@Override
	public boolean forceRelease(String key) {
		ScriptArguments.Call forceRelease = this.arguments.forceRelease(key);
		Long released = call(() -> this.redis.execute(LockScripts.FORCE_RELEASE, forceRelease.keys(),
				forceRelease.args().toArray()));
		return released != null && released == 1L;
	}

	private List<StoredLock> describe(List<String> lockKeys) {
		List<Object> ownersAndTtls = this.redis.executePipelined((RedisCallback<Object>) (connection) -> {
			for (String lockKey : lockKeys) {
				byte[] rawKey = this.redis.getStringSerializer().serialize(lockKey);
				connection.stringCommands().get(rawKey);
				connection.keyCommands().pTtl(rawKey);
			}
			return null;
		});
		List<StoredLock> locks = new ArrayList<>(lockKeys.size());
		for (int i = 0; i < lockKeys.size(); i++) {
			Object owner = ownersAndTtls.get(2 * i);
			Object ttl = ownersAndTtls.get(2 * i + 1);
			String key = keyOf(lockKeys.get(i));
			if (key != null && owner != null && ttl instanceof Long millis && millis > 0) {
				locks.add(StoredLock.of(key, Duration.ofMillis(millis), owner.toString()));
			}
		}
		return locks;
	}

	/** The application's key of a lock key, or {@code null} for a key under the prefix that Locksmith did not write. */
	private @Nullable String keyOf(String lockKey) {
		try {
			return this.keys.keyOf(lockKey);
		}
		catch (IllegalArgumentException ex) {
			return null;
		}
	}


	private static <T> T call(java.util.function.Supplier<T> command) {
		try {
			return command.get();
		}
		catch (DataAccessException ex) {
			throw new LockUnavailableException("Redis failed: " + ex.getMessage(), ex);
		}
	}

}
