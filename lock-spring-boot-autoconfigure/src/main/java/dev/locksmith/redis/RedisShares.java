package dev.locksmith.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

import org.springframework.data.redis.core.script.RedisScript;

import dev.locksmith.core.LockBackend.AcquireResult;
import dev.locksmith.core.LockBackend.LeaseExtension;
import dev.locksmith.core.internal.Shares;

/**
 * The shares of the Redis backend: readers and permit holders of one key each, every one with its own
 * lease in the key's sorted set of holders, in the same queue as the key's writers.
 */
final class RedisShares {

	private final RedisLockKeys keys;

	private final String claimLease;

	private final ScriptCall scripts;

	RedisShares(RedisLockKeys keys, String claimLease, ScriptCall scripts) {
		this.keys = keys;
		this.claimLease = claimLease;
		this.scripts = scripts;
	}

	/**
	 * Takes the share that {@code ownerToken} names, or queues for it.
	 * @throws IllegalStateException (through the future) when the lock is held with another permit count
	 */
	CompletableFuture<AcquireResult> acquire(String key, String ownerToken, Duration ttl, Duration queueFor) {
		List<String> args = List.of(ownerToken, millis(ttl), millis(RedisLockBackend.FENCE_COUNTER_LIFETIME),
				millis(queueFor), this.claimLease, this.keys.releaseChannel(key));
		return this.scripts.call("acquire", List.of(key), LockScripts.ACQUIRE_SHARE, redisKeys(key), args,
				(result) -> switch (((Long) result.get(0)).intValue()) {
					case 1 -> AcquireResult.granted(List.of((Long) result.get(1)));
					case 0 -> AcquireResult.busy(key, RedisLockBackend.remainingLease((Long) result.get(2)));
					default -> throw Shares.permitsMismatch(key, ownerToken, (Long) result.get(1));
				});
	}

	/** Releases the share of {@code ownerToken}, or takes it out of the queue. */
	CompletableFuture<Integer> release(String key, String ownerToken) {
		List<String> args = List.of(ownerToken, this.claimLease, millis(RedisLockBackend.FENCE_COUNTER_LIFETIME),
				this.keys.releaseChannel(key));
		return this.scripts.call("release", List.of(key), LockScripts.RELEASE_SHARE, redisKeys(key), args,
				Long::intValue);
	}

	/** Extends the leases of shares of one hash slot, each only for its own holder. */
	CompletableFuture<List<Boolean>> extend(List<LeaseExtension> leases) {
		List<String> redisKeys = new ArrayList<>(leases.size() * 2);
		List<String> args = new ArrayList<>(leases.size() * 3);
		for (LeaseExtension lease : leases) {
			redisKeys.add(this.keys.lockKey(lease.key()));
			redisKeys.add(this.keys.holdersKey(lease.key()));
			args.add(lease.ownerToken());
			args.add(millis(lease.ttl()));
			args.add(lease.last() ? "1" : "0");
		}
		return this.scripts.call("extend", leases.stream().map(LeaseExtension::key).toList(), LockScripts.EXTEND_SHARES,
				redisKeys, args, (extended) -> extended.stream().map((flag) -> (Long) flag == 1L).toList());
	}

	private List<String> redisKeys(String key) {
		return List.of(this.keys.lockKey(key), this.keys.fenceKey(key), this.keys.queueKey(key),
				this.keys.deadlinesKey(key), this.keys.holdersKey(key));
	}

	private static String millis(Duration duration) {
		return Long.toString(duration.toMillis());
	}

	/** Runs a script and reads its answer, turning failures into {@code LockUnavailableException}. */
	@FunctionalInterface
	interface ScriptCall {

		<T, R> CompletableFuture<R> call(String operation, List<String> keys, RedisScript<T> script,
				List<String> redisKeys, List<String> args, Function<T, R> reader);

	}

}
