package dev.locksmith.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

import dev.locksmith.core.LockStore.LeaseExtension;
import dev.locksmith.core.OwnerEntries;

/**
 * The KEYS and ARGV of each lock script, in the order its {@code .lua} file's header lists them: the
 * Redis names of the keys a script touches, grouped by kind, then the owner, times in milliseconds and
 * the release channels; the scripts that hand locks on end with how to publish the hand-overs.
 */
final class ScriptArguments {

	/** How long a fencing counter outlives its last grant; the server clock floor covers the rest. */
	static final Duration FENCE_COUNTER_LIFETIME = Duration.ofHours(1);

	private static final String FENCE_LIFETIME = millis(FENCE_COUNTER_LIFETIME);

	private final RedisLockKeys keys;

	private final String claimLease;

	/** The last argument of the scripts that hand locks on: how {@code hand-on.lua} publishes the hand-overs. */
	private final String publish;

	/**
	 * @param shardChannels whether the subscribers listen on shard channels where the server has them (a
	 * Lettuce cluster connection): the scripts then {@code SPUBLISH} on Redis 7 and later
	 */
	ScriptArguments(RedisLockKeys keys, Duration claimLease, boolean shardChannels) {
		this.keys = keys;
		this.claimLease = millis(claimLease);
		this.publish = shardChannels ? "SPUBLISH" : "PUBLISH";
	}

	/** {@code acquire.lua} and {@code acquire-share.lua}: take the locks of one slot, or queue for them. */
	Call acquire(List<String> keys, String ownerToken, Duration ttl, Duration queueFor) {
		List<String> args = new ArrayList<>(keys.size() + 6);
		args.add(ownerToken);
		args.add(millis(ttl));
		args.add(FENCE_LIFETIME);
		args.add(millis(queueFor));
		args.add(this.claimLease);
		addNames(args, keys, this.keys::releaseChannel);
		args.add(this.publish);
		return new Call(queueKeys(keys), args);
	}

	/**
	 * {@code release.lua}: frees exclusive locks of one slot, handing each to the head of its queue, or up to
	 * {@code cohortPasses} times in a row to a waiter of the owner's own process further back.
	 */
	Call release(List<String> keys, String ownerToken, int cohortPasses) {
		return giveBack(keys, ownerToken, Integer.toString(cohortPasses));
	}

	/**
	 * {@code release.lua}, {@code release-share.lua} and {@code step-aside.lua}: free locks of one slot,
	 * handing each to the head of its queue; {@code options} come between the counters' lifetime and the
	 * channels.
	 */
	Call giveBack(List<String> keys, String ownerToken, String... options) {
		List<String> args = new ArrayList<>(keys.size() + 4 + options.length);
		args.add(ownerToken);
		args.add(this.claimLease);
		args.add(FENCE_LIFETIME);
		args.addAll(List.of(options));
		addNames(args, keys, this.keys::releaseChannel);
		args.add(this.publish);
		return new Call(queueKeys(keys), args);
	}

	/** {@code force-release.lua}: frees a lock whoever holds it. */
	Call forceRelease(String key) {
		return new Call(queueKeys(List.of(key)),
				List.of(this.claimLease, FENCE_LIFETIME, this.keys.releaseChannel(key), this.publish));
	}

	/** {@code extend.lua}: extends leases of one slot, each only for its own owner. */
	Call extend(List<LeaseExtension> leases) {
		List<String> lockKeys = new ArrayList<>(leases.size());
		for (LeaseExtension lease : leases) {
			lockKeys.add(this.keys.lockKey(lease.key()));
		}
		return new Call(lockKeys, leaseArgs(leases));
	}

	/** {@code extend-shares.lua}: extends leases of shares of one slot, each only for its own holder. */
	Call extendShares(List<LeaseExtension> leases) {
		List<String> redisKeys = new ArrayList<>(leases.size() * 2);
		for (LeaseExtension lease : leases) {
			redisKeys.add(this.keys.lockKey(lease.key()));
			redisKeys.add(this.keys.holdersKey(lease.key()));
		}
		return new Call(redisKeys, leaseArgs(leases));
	}

	/** {@code raise-fences.lua}: raises each key's fencing counter to at least its floor, where the owner holds them all. */
	Call raiseFences(List<String> keys, String ownerToken, List<Long> floors) {
		List<String> redisKeys = new ArrayList<>(keys.size() * 2);
		addNames(redisKeys, keys, this.keys::lockKey);
		addNames(redisKeys, keys, this.keys::fenceKey);
		List<String> args = new ArrayList<>(keys.size() + 2);
		args.add(ownerToken);
		args.add(FENCE_LIFETIME);
		floors.forEach((floor) -> args.add(Long.toString(floor)));
		return new Call(redisKeys, args);
	}

	/** {@code announce-release.lua}: tells the waiters of {@code keys} that the owner freed them. */
	Call announceRelease(List<String> keys, String ownerToken) {
		List<String> args = new ArrayList<>(keys.size() + 1);
		args.add(ownerToken);
		addNames(args, keys, this.keys::releaseChannel);
		return new Call(List.of(), args);
	}

	/** {@code is-locked.lua}: whether anyone holds the lock of {@code key}. */
	Call isLocked(String key) {
		return new Call(List.of(this.keys.lockKey(key)), List.of());
	}

	/** Each lock, fencing counter, queue, deadlines and holders of shares of {@code keys}, kind by kind. */
	private List<String> queueKeys(List<String> keys) {
		List<String> redisKeys = new ArrayList<>(keys.size() * 5);
		addNames(redisKeys, keys, this.keys::lockKey);
		addNames(redisKeys, keys, this.keys::fenceKey);
		addNames(redisKeys, keys, this.keys::queueKey);
		addNames(redisKeys, keys, this.keys::deadlinesKey);
		addNames(redisKeys, keys, this.keys::holdersKey);
		return redisKeys;
	}

	private static List<String> leaseArgs(List<LeaseExtension> leases) {
		List<String> args = new ArrayList<>(leases.size() * 3);
		for (LeaseExtension lease : leases) {
			args.add(OwnerEntries.of(lease.owner()));
			args.add(millis(lease.ttl()));
			args.add(lease.last() ? "1" : "0");
		}
		return args;
	}

	/** Adds the Redis name of each key, in order. */
	private static void addNames(List<String> names, List<String> keys, UnaryOperator<String> naming) {
		for (String key : keys) {
			names.add(naming.apply(key));
		}
	}

	private static String millis(Duration duration) {
		return Long.toString(duration.toMillis());
	}

	/**
	 * The KEYS and ARGV of one script call.
	 * @param keys the Redis keys
	 * @param args the other arguments
	 */
	record Call(List<String> keys, List<String> args) {
	}

}
