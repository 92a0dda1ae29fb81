package dev.locksmith.redis;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.UnknownPartitionException;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.connection.ReturnType;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * Runs scripts through Lettuce's asynchronous API on one connection of the factory, opened on first
 * use and kept (with the factory's default shared native connection, that is the application's own
 * connection): the caller's thread only writes the command, and Lettuce's event loop completes the
 * future. On a cluster, the command goes to the node that serves the slot of its first key.
 */
final class LettuceScriptRunner implements ScriptRunner {

	/** Lettuce's output type for each Java result type of a script. */
	private static final ClassValue<ScriptOutputType> OUTPUT_TYPES = new ClassValue<>() {

		@Override
		protected ScriptOutputType computeValue(Class<?> resultType) {
			return ScriptOutputType.valueOf(ReturnType.fromJavaType(resultType).name());
		}

	};

	private final LettuceConnectionFactory connectionFactory;

	private final ReentrantLock opening = new ReentrantLock();

	private volatile @Nullable RedisConnection connection;

	private volatile @Nullable CompletableFuture<Void> topologyRefresh;

	private LettuceScriptRunner(LettuceConnectionFactory connectionFactory) {
		this.connectionFactory = connectionFactory;
	}

	/** A runner on {@code connectionFactory} when it is Lettuce's, else {@code null}. */
	static @Nullable ScriptRunner forFactory(RedisConnectionFactory connectionFactory) {
		return (connectionFactory instanceof LettuceConnectionFactory lettuce) ? new LettuceScriptRunner(lettuce)
				: null;
	}

	@Override
	public boolean isCluster() {
		return this.connectionFactory.isClusterAware();
	}

	/**
	 * Runs the script; when a cluster redirected it to a node that this connection does not know yet (a
	 * master added since its topology was last refreshed), Redis did not run it: refreshes the topology and
	 * sends it once more.
	 */
	@Override
	public <T> CompletableFuture<T> run(RedisScript<T> script, ScriptArguments.Call arguments) {
		return runOnce(script, arguments)
			.exceptionallyCompose((failure) -> (unwrap(failure) instanceof UnknownPartitionException)
					? refreshedTopology().thenCompose((refreshed) -> runOnce(script, arguments))
					: CompletableFuture.failedFuture(failure));
	}

	private <T> CompletableFuture<T> runOnce(RedisScript<T> script, ScriptArguments.Call arguments) {
		ScriptOutputType outputType = OUTPUT_TYPES.get(script.getResultType());
		byte[][] rawKeys = arguments.keys();
		byte[][] rawArgs = arguments.args();
		return withCommands((commands) -> commands.<T>evalsha(script.getSha1(), outputType, rawKeys, rawArgs)
			.toCompletableFuture()
			.exceptionallyCompose((failure) -> isNoScript(failure)
					? commands.<T>eval(script.getScriptAsString(), outputType, rawKeys, rawArgs).toCompletableFuture()
					: CompletableFuture.failedFuture(failure)));
	}

	/** A refresh of the cluster client's topology, shared by the calls that ask for one while it runs. */
	private CompletableFuture<Void> refreshedTopology() {
		CompletableFuture<Void> running = this.topologyRefresh;
		if (running == null || running.isDone()) {
			this.opening.lock();
			try {
				running = this.topologyRefresh;
				if ((running == null || running.isDone())
						&& this.connectionFactory.getNativeClient() instanceof RedisClusterClient client) {
					running = client.refreshPartitionsAsync().toCompletableFuture();
					this.topologyRefresh = running;
				}
			}
			finally {
				this.opening.unlock();
			}
		}
		return (running != null) ? running : CompletableFuture.completedFuture(null);
	}

	@Override
	public CompletableFuture<Void> warmUp(List<RedisScript<?>> scripts) {
		return withCommands((commands) -> CompletableFuture.allOf(scripts.stream()
			.map((script) -> commands.scriptLoad(script.getScriptAsString()).toCompletableFuture())
			.toArray(CompletableFuture[]::new)));
	}

	@Override
	public void close() {
		RedisConnection current = this.connection;
		this.connection = null;
		if (current != null) {
			current.close();
		}
	}

	/**
	 * Issues commands on the kept connection. A call that fails for another reason than an error
	 * answer from Redis drops that connection, so that the next call opens a new one from the
	 * factory, which may have been reset meanwhile. While Lettuce knows the connection is down (it is
	 * reconnecting), a call fails at once instead of queueing until the store timeout.
	 */
	private <T> CompletableFuture<T> withCommands(
			Function<RedisClusterAsyncCommands<byte[], byte[]>, CompletableFuture<T>> call) {
		RedisConnection current = connection();
		try {
			RedisClusterAsyncCommands<byte[], byte[]> commands = commandsOf(current);
			LettuceState.requireUp(commands);
			return call.apply(commands).whenComplete((result, failure) -> {
				if (failure != null && !(unwrap(failure) instanceof RedisCommandExecutionException)) {
					drop(current);
				}
			});
		}
		catch (RuntimeException ex) {
			drop(current);
			throw ex;
		}
	}

	private void drop(RedisConnection failed) {
		this.opening.lock();
		try {
			if (this.connection == failed) {
				this.connection = null;
				failed.close();
			}
		}
		finally {
			this.opening.unlock();
		}
	}

	private RedisConnection connection() {
		RedisConnection current = this.connection;
		if (current != null && !current.isClosed()) {
			return current;
		}
		this.opening.lock();
		try {
			current = this.connection;
			if (current == null || current.isClosed()) {
				current = this.connectionFactory.getConnection();
				this.connection = current;
			}
			return current;
		}
		finally {
			this.opening.unlock();
		}
	}

	@SuppressWarnings("unchecked")
	private static RedisClusterAsyncCommands<byte[], byte[]> commandsOf(RedisConnection connection) {
		return (RedisClusterAsyncCommands<byte[], byte[]>) connection.getNativeConnection();
	}

	private static Throwable unwrap(Throwable failure) {
		return (failure instanceof CompletionException && failure.getCause() != null) ? failure.getCause() : failure;
	}

	private static boolean isNoScript(Throwable failure) {
		Throwable cause = unwrap(failure);
		return cause instanceof RedisNoScriptException
				|| (cause.getMessage() != null && cause.getMessage().startsWith("NOSCRIPT"));
	}

}
