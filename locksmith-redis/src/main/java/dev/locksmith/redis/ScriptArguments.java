package dev.locksmith.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import dev.locksmith.core.LockStore.LeaseExtension;
import dev.locksmith.core.OwnerEntries;
import dev.locksmith.redis.RedisLockKeys.Kind;

/**
 * The KEYS and ARGV of each lock script, in the order its {@code .lua} file's header lists them: the
 * Redis names of the keys a script touches, grouped by kind, then the owner, times in milliseconds and
 * the release channels; the scripts that hand locks on end with how to publish the hand-overs. They are
 * written straight to the UTF-8 bytes that Redis receives, each key's tag encoded once for all its names:
 * a lock call makes no string of its own for them.
 */
final class ScriptArguments {

	/** How long a fencing counter outlives its last grant; the server clock floor covers the rest. */
	static final Duration FENCE_COUNTER_LIFETIME = Duration.ofHours(1);

	private static final byte[] FENCE_LIFETIME = millis(FENCE_COUNTER_LIFETIME);

	/** The kinds of name of every key a script that hands locks on touches, in their order in KEYS. */
	private static final Kind[] QUEUE_KINDS = { Kind.LOCK, Kind.FENCE, Kind.QUEUE, Kind.DEADLINES, Kind.HOLDERS };

	private final RedisLockKeys keys;

	private final byte[] claimLease;

	/** The last argument of the scripts that hand locks on: how {@code hand-on.lua} publishes the hand-overs. */
	private final byte[] publish;

	/**
	 * @param shardChannels whether the subscribers listen on shard channels where the server has them (a
	 * Lettuce cluster connection): the scripts then {@code SPUBLISH} on Redis 7 and later
	 */
	ScriptArguments(RedisLockKeys keys, Duration claimLease, boolean shardChannels) {
		this.keys = keys;
		this.claimLease = millis(claimLease);
		this.publish = utf8(shardChannels ? "SPUBLISH" : "PUBLISH");
	}

	/** {@code acquire.lua} and {@code acquire-share.lua}: take the locks of one slot, or queue for them. */
	Call acquire(List<String> keys, String ownerToken, Duration ttl, Duration queueFor) {
		byte[][] tags = tags(keys);
		Values args = new Values(keys.size() + 6).add(utf8(ownerToken))
			.add(millis(ttl))
			.add(FENCE_LIFETIME)
			.add(millis(queueFor))
			.add(this.claimLease)
			.names(Kind.CHANNEL, tags)
			.add(this.publish);
		return new Call(queueKeys(tags), args.values());
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
		byte[][] tags = tags(keys);
		Values args = new Values(keys.size() + 4 + options.length).add(utf8(ownerToken))
			.add(this.claimLease)
			.add(FENCE_LIFETIME);
		for (String option : options) {
			args.add(utf8(option));
		}
		return new Call(queueKeys(tags), args.names(Kind.CHANNEL, tags).add(this.publish).values());
	}

	/** {@code force-release.lua}: frees a lock whoever holds it. */
	Call forceRelease(String key) {
		byte[][] tags = tags(List.of(key));
		return new Call(queueKeys(tags),
				new Values(4).add(this.claimLease).add(FENCE_LIFETIME).names(Kind.CHANNEL, tags).add(this.publish).values());
	}

	/** {@code extend.lua}: extends leases of one slot, each only for its own owner. */
	Call extend(List<LeaseExtension> leases) {
		byte[][] tags = leaseTags(leases);
		return new Call(new Values(tags.length).names(Kind.LOCK, tags).values(), leaseArgs(leases));
	}

	/** {@code extend-shares.lua}: extends leases of shares of one slot, each only for its own holder. */
	Call extendShares(List<LeaseExtension> leases) {
		Values redisKeys = new Values(leases.size() * 2);
		for (byte[] tag : leaseTags(leases)) {
			redisKeys.add(this.keys.name(Kind.LOCK, tag)).add(this.keys.name(Kind.HOLDERS, tag));
		}
		return new Call(redisKeys.values(), leaseArgs(leases));
	}

	/** {@code raise-fences.lua}: raises each key's fencing counter to at least its floor, where the owner holds them all. */
	Call raiseFences(List<String> keys, String ownerToken, List<Long> floors) {
		byte[][] tags = tags(keys);
		Values args = new Values(keys.size() + 2).add(utf8(ownerToken)).add(FENCE_LIFETIME);
		floors.forEach((floor) -> args.add(utf8(Long.toString(floor))));
		return new Call(new Values(keys.size() * 2).names(Kind.LOCK, tags).names(Kind.FENCE, tags).values(),
				args.values());
	}

	/** {@code announce-release.lua}: tells the waiters of {@code keys} that the owner freed them. */
	Call announceRelease(List<String> keys, String ownerToken) {
		return new Call(new byte[0][],
				new Values(keys.size() + 1).add(utf8(ownerToken)).names(Kind.CHANNEL, tags(keys)).values());
	}

	/** {@code is-locked.lua}: whether anyone holds the lock of {@code key}. */
	Call isLocked(String key) {
		return new Call(new Values(1).names(Kind.LOCK, tags(List.of(key))).values(), new byte[0][]);
	}

	/** Each lock, fencing counter, queue, deadlines and holders of shares of the keys of {@code tags}, kind by kind. */
	private byte[][] queueKeys(byte[][] tags) {
		Values redisKeys = new Values(tags.length * QUEUE_KINDS.length);
		for (Kind kind : QUEUE_KINDS) {
			redisKeys.names(kind, tags);
		}
		return redisKeys.values();
	}

	private static byte[][] tags(List<String> keys) {
		byte[][] tags = new byte[keys.size()][];
		for (int i = 0; i < tags.length; i++) {
			tags[i] = RedisLockKeys.tag(keys.get(i));
		}
		return tags;
	}

	private static byte[][] leaseTags(List<LeaseExtension> leases) {
		return tags(leases.stream().map(LeaseExtension::key).toList());
	}

	private byte[][] leaseArgs(List<LeaseExtension> leases) {
		Values args = new Values(leases.size() * 3);
		for (LeaseExtension lease : leases) {
			args.add(utf8(OwnerEntries.of(lease.owner()))).add(millis(lease.ttl())).add(utf8(lease.last() ? "1" : "0"));
		}
		return args.values();
	}

	private static byte[] millis(Duration duration) {
		return utf8(Long.toString(duration.toMillis()));
	}

	private static byte[] utf8(String value) {
		return value.getBytes(StandardCharsets.UTF_8);
	}

	/** A script's KEYS or ARGV, filled in order. */
	private final class Values {

		private final byte[][] values;

		private int size;

		private Values(int capacity) {
			this.values = new byte[capacity][];
		}

		Values add(byte[] value) {
			this.values[this.size++] = value;
			return this;
		}

		/** Adds the Redis name of {@code kind} of each key of {@code tags}, in order. */
		Values names(Kind kind, byte[][] tags) {
			for (byte[] tag : tags) {
				add(ScriptArguments.this.keys.name(kind, tag));
			}
			return this;
		}

		byte[][] values() {
			return (this.size == this.values.length) ? this.values : Arrays.copyOf(this.values, this.size);
		}

	}

	/**
	 * The KEYS and ARGV of one script call, in UTF-8.
	 * @param keys the Redis keys
	 * @param args the other arguments
	 */
	record Call(byte[][] keys, byte[][] args) {

		/** The keys as strings, for a client that takes them so. */
		List<String> keyStrings() {
			return strings(this.keys);
		}

		/** The other arguments as strings, for a client that takes them so. */
		List<String> argStrings() {
			return strings(this.args);
		}

		private static List<String> strings(byte[][] values) {
			return Arrays.stream(values).map((value) -> new String(value, StandardCharsets.UTF_8)).toList();
		}

	}

}
