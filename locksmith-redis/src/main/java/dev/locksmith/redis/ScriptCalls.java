package dev.locksmith.redis;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;

import org.springframework.data.redis.core.script.RedisScript;

import dev.locksmith.core.LockUnavailableException;
import dev.locksmith.core.KeyMasking;
import dev.locksmith.core.StoreBusyException;

/**
 * Runs lock scripts and reads their answers, translating failures into the engine's terms: a
 * {@link LockUnavailableException} that names the operation and its keys, or a
 * {@link StoreBusyException} when Redis refused the script before running it, so that it may be sent
 * again.
 */
final class ScriptCalls {

	private final ScriptRunner runner;

	private final RedisLockKeys keys;

	ScriptCalls(ScriptRunner runner, RedisLockKeys keys) {
		this.runner = runner;
		this.keys = keys;
	}

	/** Runs {@code script} on behalf of {@code operation} on {@code keys} and reads its answer with {@code reader}, in one stage. */
	<T, R> CompletableFuture<R> call(String operation, List<String> keys, RedisScript<T> script,
			ScriptArguments.Call arguments, Function<T, R> reader) {
		CompletableFuture<T> call;
		try {
			call = this.runner.run(script, arguments);
		}
		catch (RuntimeException ex) {
			call = CompletableFuture.failedFuture(ex);
		}
		return call.handle((result, failure) -> {
			if (failure != null) {
				throw translate(operation, keys, failure);
			}
			if (result == null) {
				throw new LockUnavailableException("Redis returned no result for " + describe(operation, keys), null);
			}
			return reader.apply(result);
		});
	}

	private LockUnavailableException translate(String operation, List<String> keys, Throwable failure) {
		Throwable cause = (failure instanceof CompletionException && failure.getCause() != null) ? failure.getCause()
				: failure;
		if (cause instanceof LockUnavailableException unavailable) {
			return unavailable;
		}
		String message = "Redis failed " + describe(operation, keys) + ": "
				+ RedisAcl.explain(String.valueOf(cause.getMessage()), this.keys);
		return isRefusedBeforeRunning(cause) ? new StoreBusyException(message, cause)
				: new LockUnavailableException(message, cause);
	}

	/**
	 * Whether Redis refused a script because its slot is migrating: {@code TRYAGAIN} when only some of
	 * its keys have moved, or a "non local key" when a command of the script found a key gone. The
	 * scripts touch no key after a command that may have deleted it, so the second comes before any
	 * write too (see the head of hand-on.lua), and sending the script again is safe.
	 */
	private static boolean isRefusedBeforeRunning(Throwable cause) {
		String message = String.valueOf(cause.getMessage());
		return message.startsWith("TRYAGAIN") || message.contains("non local key");
	}

	private static String describe(String operation, List<String> keys) {
		return operation + " of " + KeyMasking.describe(keys);
	}

}
