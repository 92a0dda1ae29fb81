package dev.locksmith.redis;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;

import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.connection.ReturnType;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * Runs scripts through Lettuce's asynchronous API on the connection factory's shared connection: the
 * caller's thread only writes the command, and Lettuce's event loop completes the future. On a
 * cluster, the command goes to the node that serves the slot of its first key.
 */
final class LettuceScriptRunner implements ScriptRunner {

	private final LettuceConnectionFactory connectionFactory;

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

	@Override
	public <T> CompletableFuture<T> run(RedisScript<T> script, List<String> keys, List<String> args) {
		ScriptOutputType outputType = ScriptOutputType.valueOf(ReturnType.fromJavaType(script.getResultType()).name());
		byte[][] rawKeys = raw(keys);
		byte[][] rawArgs = raw(args);
		return withCommands((commands) -> commands.<T>evalsha(script.getSha1(), outputType, rawKeys, rawArgs)
			.toCompletableFuture()
			.exceptionallyCompose((failure) -> isNoScript(failure)
					? commands.<T>eval(script.getScriptAsString(), outputType, rawKeys, rawArgs).toCompletableFuture()
					: CompletableFuture.failedFuture(failure)));
	}

	@Override
	public CompletableFuture<Void> warmUp(List<RedisScript<?>> scripts) {
		return withCommands((commands) -> CompletableFuture.allOf(scripts.stream()
			.map((script) -> commands.scriptLoad(script.getScriptAsString()).toCompletableFuture())
			.toArray(CompletableFuture[]::new)));
	}

	/**
	 * Issues commands on a connection of the factory, closed when their answer came. With the
	 * factory's default shared native connection, opening and closing it costs no round trip.
	 */
	@SuppressWarnings("unchecked")
	private <T> CompletableFuture<T> withCommands(
			Function<RedisClusterAsyncCommands<byte[], byte[]>, CompletableFuture<T>> call) {
		RedisConnection connection = this.connectionFactory.getConnection();
		try {
			return call.apply((RedisClusterAsyncCommands<byte[], byte[]>) connection.getNativeConnection())
				.whenComplete((result, failure) -> connection.close());
		}
		catch (RuntimeException ex) {
			connection.close();
			throw ex;
		}
	}

	private static boolean isNoScript(Throwable failure) {
		Throwable cause = (failure instanceof CompletionException) ? failure.getCause() : failure;
		return cause instanceof RedisNoScriptException
				|| (cause != null && cause.getMessage() != null && cause.getMessage().startsWith("NOSCRIPT"));
	}

	private static byte[][] raw(List<String> values) {
		byte[][] raw = new byte[values.size()][];
		for (int i = 0; i < raw.length; i++) {
			raw[i] = values.get(i).getBytes(StandardCharsets.UTF_8);
		}
		return raw;
	}

}
