package dev.locksmith.redis;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import dev.locksmith.core.LockOwner;
import dev.locksmith.core.LockStore.AcquireResult;
import dev.locksmith.core.LockStore.LeaseExtension;
import dev.locksmith.core.OwnerEntries;

/**
 * The shares of the Redis backend: readers and permit holders of one key each, every one with its own
 * lease in the key's sorted set of holders, in the same queue as the key's writers.
 */
final class RedisShares {

	private final ScriptArguments arguments;

	private final ScriptCalls scripts;

	RedisShares(ScriptArguments arguments, ScriptCalls scripts) {
		this.arguments = arguments;
		this.scripts = scripts;
	}

	/**
	 * Takes the share that {@code owner} asks for, or queues for it.
	 * @throws IllegalStateException (through the future) when the lock is held with another permit count
	 */
	CompletableFuture<AcquireResult> acquire(String key, LockOwner owner, Duration ttl, Duration queueFor) {
		List<String> keys = List.of(key);
		return this.scripts.call("acquire", keys, LockScripts.ACQUIRE_SHARE,
				this.arguments.acquire(keys, OwnerEntries.of(owner), ttl, queueFor),
				(answer) -> acquired(key, owner, answer));
	}

	/** Releases the share of {@code owner}, or takes it out of the queue. */
	CompletableFuture<Integer> release(String key, LockOwner owner) {
		List<String> keys = List.of(key);
		return this.scripts.call("release", keys, LockScripts.RELEASE_SHARE,
				this.arguments.giveBack(keys, OwnerEntries.of(owner)), Long::intValue);
	}

	/** Extends the leases of shares of one hash slot, each only for its own holder. */
	CompletableFuture<List<Boolean>> extend(List<LeaseExtension> leases) {
		return this.scripts.call("extend", leases.stream().map(LeaseExtension::key).toList(), LockScripts.EXTEND_SHARES,
				this.arguments.extendShares(leases), ScriptAnswers::flags);
	}

	/**
	 * {@code acquire-share.lua}: {@code {1, token}} when granted, {@code {0, 1, pttl}} when busy, and
	 * {@code {-1, permits}} when the lock is held with another permit count.
	 */
	private static AcquireResult acquired(String key, LockOwner owner, List<?> answer) {
		return switch (((Long) answer.get(0)).intValue()) {
			case 1 -> AcquireResult.granted(Map.of(key, (Long) answer.get(1)));
			case 0 -> AcquireResult.busy(key, ScriptAnswers.remainingLease((Long) answer.get(2)),
					ScriptAnswers.busyFence(answer));
			default -> throw OwnerEntries.permitsMismatch(key, owner.share().permits(), (Long) answer.get(1));
		};
	}

}
