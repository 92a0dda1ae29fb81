package dev.locksmith.redis;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.util.ClassUtils;

import dev.locksmith.core.LockUnavailableException;

/**
 * Runs scripts for clients without an asynchronous API (Jedis) on a bounded pool: at most
 * {@link #THREADS} calls in flight and {@link #QUEUED} waiting; beyond that a call fails at once
 * with {@link LockUnavailableException} instead of starting a thread. Spring's script executor
 * handles {@code NOSCRIPT}.
 */
final class BlockingScriptRunner implements ScriptRunner {

	/** Most store calls in flight at once. */
	static final int THREADS = 16;

	/** Most store calls waiting for a thread. */
	static final int QUEUED = 1024;

	private final StringRedisTemplate redis;

	private final ExecutorService executor;

	private static final boolean JEDIS_PRESENT = ClassUtils.isPresent("redis.clients.jedis.Jedis", null);

	/** Whether Redis is a cluster: known from the factory's configuration, else asked once. */
	private volatile @Nullable Boolean cluster;

	BlockingScriptRunner(RedisConnectionFactory connectionFactory) {
		this.redis = new StringRedisTemplate(connectionFactory);
		this.cluster = JEDIS_PRESENT ? JedisClusterCheck.clusterAware(connectionFactory) : null;
		ThreadPoolExecutor pool = new ThreadPoolExecutor(THREADS, THREADS, 30, TimeUnit.SECONDS,
				new ArrayBlockingQueue<>(QUEUED), DaemonThreads.named("locksmith-store"));
		pool.allowCoreThreadTimeOut(true);
		this.executor = pool;
	}

	@Override
	public <T> CompletableFuture<T> run(RedisScript<T> script, ScriptArguments.Call arguments) {
		return submit(() -> this.redis.execute(script, arguments.keyStrings(), arguments.argStrings().toArray()));
	}

	@Override
	public CompletableFuture<Void> warmUp(List<RedisScript<?>> scripts) {
		return submit(() -> {
			this.redis.execute((RedisCallback<Void>) (connection) -> {
				scripts.forEach((script) -> connection.scriptingCommands()
					.scriptLoad(script.getScriptAsString().getBytes(StandardCharsets.UTF_8)));
				return null;
			});
			return null;
		});
	}

	@Override
	public boolean isCluster() {
		Boolean cluster = this.cluster;
		if (cluster == null) {
			cluster = Boolean.TRUE.equals(this.redis
				.execute((RedisCallback<Boolean>) (connection) -> connection instanceof RedisClusterConnection));
			this.cluster = cluster;
		}
		return cluster;
	}

	@Override
	public void close() {
		this.executor.shutdownNow();
	}

	/** Reads cluster-awareness from a Jedis factory's configuration, without a round trip. */
	private static final class JedisClusterCheck {

		static @Nullable Boolean clusterAware(RedisConnectionFactory connectionFactory) {
			return (connectionFactory instanceof JedisConnectionFactory jedis) ? jedis.isRedisClusterAware() : null;
		}

	}

	private <T> CompletableFuture<T> submit(Supplier<T> call) {
		try {
			return CompletableFuture.supplyAsync(call, this.executor);
		}
		catch (RejectedExecutionException ex) {
			return CompletableFuture.failedFuture(new LockUnavailableException(
					"Too many Redis calls in flight (" + THREADS + " running, " + QUEUED + " queued)", ex));
		}
	}

}
