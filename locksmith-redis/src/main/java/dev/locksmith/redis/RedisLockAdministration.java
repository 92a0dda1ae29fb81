package dev.locksmith.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.Cursor;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.ScanOptions;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.ZSetOperations.TypedTuple;

import dev.locksmith.core.LockAdministration.StoredLock;
import dev.locksmith.core.LockUnavailableException;
import dev.locksmith.core.OwnerEntries;
import dev.locksmith.core.StoreAdministration;
import dev.locksmith.core.WaitQueue;

/**
 * {@link StoreAdministration} on Redis: finds locks with {@code SCAN} on the key prefix (never
 * {@code KEYS}), reads who holds them from their owner tokens, lists their wait queues
 * ({@link RedisWaitQueues}), and force-releases with a script. A ping
 * fails at once while Lettuce knows the connection is down. Spring Data Redis's template blocks, so each
 * call runs on a small pool of this administration's own: beyond {@link #MAX_THREADS} calls in flight,
 * a call fails at once.
 */
final class RedisLockAdministration implements StoreAdministration, AutoCloseable {

	/** Most administration calls in flight. */
	static final int MAX_THREADS = 4;

	private final StringRedisTemplate redis;

	private final RedisLockKeys keys;

	private final ScriptArguments arguments;

	private final RedisWaitQueues waitQueues;

	private volatile @Nullable String storeDescription;

	private final @Nullable ClusterTopology topology;

	private final ThreadPoolExecutor executor = new ThreadPoolExecutor(0, MAX_THREADS, 30, TimeUnit.SECONDS,
			new SynchronousQueue<>(), DaemonThreads.named("locksmith-admin"));

	RedisLockAdministration(RedisConnectionFactory connectionFactory, RedisLockKeys keys) {
		this(connectionFactory, keys, RedisLockBackend.DEFAULT_CLAIM_LEASE, false);
	}

	/**
	 * An administration whose forced releases give the next waiter {@code claimLease} to take the lock, and
	 * are published on shard channels when {@code shardedPubSub} can apply.
	 */
	RedisLockAdministration(RedisConnectionFactory connectionFactory, RedisLockKeys keys, Duration claimLease,
			boolean shardedPubSub) {
		this.redis = new StringRedisTemplate(connectionFactory);
		this.keys = keys;
		this.waitQueues = new RedisWaitQueues(this.redis, keys);
		this.arguments = new ScriptArguments(keys, claimLease,
				RedisLockBackend.shardedPubSub(connectionFactory, shardedPubSub));
		Boolean cluster = RedisLockBackend.LETTUCE_PRESENT ? LettuceState.clusterAware(connectionFactory) : null;
		this.storeDescription = (cluster != null) ? describe(cluster) : null;
		this.topology = Boolean.TRUE.equals(cluster) ? ClusterTopology.of(connectionFactory) : null;
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

	/** On a Redis Cluster, {@code topology}: the cluster as the Lettuce connection sees it. */
	@Override
	public Map<String, Object> storeDetails() {
		return (this.topology != null) ? this.topology.details() : Map.of();
	}

	@Override
	public CompletableFuture<Void> ping() {
		return supply(() -> {
			call(() -> this.redis.execute((RedisCallback<String>) (connection) -> {
				if (RedisLockBackend.LETTUCE_PRESENT) {
					LettuceState.requireUp(connection.getNativeConnection());
				}
				this.storeDescription = describe(connection);
				return connection.ping();
			}));
			return null;
		});
	}

	private static String describe(RedisConnection connection) {
		return describe(connection instanceof RedisClusterConnection);
	}

	private static String describe(boolean cluster) {
		return cluster ? "redis-cluster" : "redis-standalone";
	}

	@Override
	public CompletableFuture<List<StoredLock>> storedLocks(int limit) {
		return supply(() -> call(() -> {
			List<String> lockKeys = new ArrayList<>();
			ScanOptions pattern = ScanOptions.scanOptions().match(this.keys.lockKeyPattern()).count(500).build();
			try (Cursor<String> cursor = this.redis.scan(pattern)) {
				while (cursor.hasNext() && lockKeys.size() < limit) {
					lockKeys.add(cursor.next());
				}
			}
			return describe(lockKeys);
		}));
	}

	@Override
	public CompletableFuture<List<WaitQueue>> waitQueues(int limit) {
		return supply(() -> call(() -> this.waitQueues.list(limit)));
	}

	@Override
	public CompletableFuture<Boolean> forceRelease(String key) {
		ScriptArguments.Call forceRelease = this.arguments.forceRelease(key);
		return supply(() -> {
			Long released = call(() -> this.redis.execute(LockScripts.FORCE_RELEASE, forceRelease.keyStrings(),
					forceRelease.argStrings().toArray()));
			return released != null && released == 1L;
		});
	}

	@Override
	public void close() {
		this.executor.shutdownNow();
	}

	/** Runs a blocking call on the pool, or fails at once when {@link #MAX_THREADS} calls are in flight. */
	private <T> CompletableFuture<T> supply(Supplier<T> call) {
		if (this.executor.isShutdown()) {
			return CompletableFuture.failedFuture(new LockUnavailableException("The lock store is closed", null));
		}
		try {
			return CompletableFuture.supplyAsync(call, this.executor);
		}
		catch (RejectedExecutionException ex) {
			return CompletableFuture.failedFuture(new LockUnavailableException(
					"Too many lock administration calls in flight (" + MAX_THREADS + ")", ex,
					"busy: " + MAX_THREADS + " earlier calls still wait for the store"));
		}
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
			if (key == null || owner == null || !(ttl instanceof Long millis) || millis <= 0) {
				continue;
			}
			String value = owner.toString();
			if (OwnerEntries.shareOf(value + "/") == null) {
				// not a share ('@read', '@permits=<n>'): one owner's token
				locks.add(StoredLock.of(key, Duration.ofMillis(millis), OwnerEntries.holderOf(value)));
				continue;
			}
			StoredLock shared = shared(key, value, millis);
			if (shared != null) {
				locks.add(shared);
			}
		}
		return locks;
	}

	/**
	 * A lock held as {@code share} by readers or permit holders, each with its own lease: the lock lives
	 * as long as the lease that ends last ({@code pttl}), so each holder's lease ends that much sooner than
	 * the last one as its score in the holders' set is lower, with no clock of the server's to ask.
	 */
	private @Nullable StoredLock shared(String key, String share, long pttl) {
		Set<TypedTuple<String>> holders = this.redis.opsForZSet().rangeWithScores(this.keys.holdersKey(key), 0, -1);
		if (holders == null || holders.isEmpty()) {
			return null;
		}
		double last = holders.stream().mapToDouble(RedisLockAdministration::scoreOf).max().orElse(0);
		Map<String, Duration> leases = new LinkedHashMap<>();
		for (TypedTuple<String> holder : holders) {
			leases.put(OwnerEntries.holderOf(String.valueOf(holder.getValue())),
					Duration.ofMillis(pttl - (long) (last - scoreOf(holder))));
		}
		return StoredLock.shared(key, OwnerEntries.typed(share), leases);
	}

	private static double scoreOf(TypedTuple<String> holder) {
		Double score = holder.getScore();
		return (score != null) ? score : 0;
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

	private <T> T call(Supplier<T> command) {
		try {
			return command.get();
		}
		catch (DataAccessException ex) {
			throw new LockUnavailableException("Redis failed: " + reason(ex), ex);
		}
	}

	/** Spring's message and, when it hides it ("Error in execution"), Redis's own, with the ACL on a refusal. */
	private String reason(DataAccessException ex) {
		Throwable cause = NestedExceptionUtils.getMostSpecificCause(ex);
		String message = (cause != ex) ? ex.getMessage() + ": " + cause.getMessage() : ex.getMessage();
		return RedisAcl.explain(String.valueOf(message), this.keys);
	}

}
