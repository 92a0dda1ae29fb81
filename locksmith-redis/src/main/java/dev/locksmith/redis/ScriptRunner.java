package dev.locksmith.redis;

import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.springframework.data.redis.core.script.RedisScript;

/** Sends a Lua script to Redis without blocking the caller; the answer completes the returned future. */
interface ScriptRunner extends AutoCloseable {

	/** Runs {@code script}; a server that forgot it ({@code NOSCRIPT}) gets its source instead. */
	<T> CompletableFuture<T> run(RedisScript<T> script, ScriptArguments.Call arguments);

	/** Connects and loads {@code scripts} into the server's script cache, so the first lock call pays for neither. */
	CompletableFuture<Void> warmUp(List<RedisScript<?>> scripts);

	/** Whether Redis is a cluster, where a script may only touch keys of one hash slot. */
	boolean isCluster();

	/** Stops what the runner started; the connection factory stays the application's. */
	@Override
	default void close() {
	}

}
