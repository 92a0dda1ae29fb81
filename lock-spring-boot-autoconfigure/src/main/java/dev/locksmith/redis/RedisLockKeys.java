package dev.locksmith.redis;

/**
 * Names the Redis keys and channel of a lock. The application's key is wrapped in a hash tag, so a
 * lock and its fencing counter always share one cluster hash slot.
 *
 * @since 0.1.0
 */
public final class RedisLockKeys {

	private final String prefix;

	public RedisLockKeys(String prefix) {
		if (prefix.contains("{") || prefix.contains("}")) {
			throw new IllegalArgumentException("key prefix must not contain '{' or '}', was '" + prefix + "'");
		}
		this.prefix = prefix;
	}

	/** The Redis key that holds the owner token of {@code key}. */
	public String lockKey(String key) {
		return this.prefix + "{" + key + "}";
	}

	/** The Redis key that counts the fencing tokens of {@code key}. */
	public String fenceKey(String key) {
		return this.prefix + "fence:{" + key + "}";
	}

	/** The application's key of a Redis lock key, the reverse of {@link #lockKey(String)}. */
	public String keyOf(String lockKey) {
		if (!lockKey.startsWith(this.prefix + "{") || !lockKey.endsWith("}")) {
			throw new IllegalArgumentException("'" + lockKey + "' is not a lock key under prefix '" + this.prefix + "'");
		}
		return lockKey.substring(this.prefix.length() + 1, lockKey.length() - 1);
	}

	/** The pattern that matches every lock key, and no fencing counter. */
	public String lockKeyPattern() {
		return this.prefix + "{*";
	}

	/** The Redis list of the owner tokens waiting for {@code key}, first come first. */
	public String queueKey(String key) {
		return this.prefix + "queue:{" + key + "}";
	}

	/** The Redis hash of the deadline of each waiter for {@code key}. */
	public String deadlinesKey(String key) {
		return this.prefix + "deadlines:{" + key + "}";
	}

	/** The pub/sub channel on which a release of {@code key} hands it to a waiter. */
	public String releaseChannel(String key) {
		return this.prefix + "released:{" + key + "}";
	}

	/** The application's key of a release channel, the reverse of {@link #releaseChannel(String)}. */
	public String keyOfChannel(String channel) {
		String start = this.prefix + "released:{";
		if (!channel.startsWith(start) || !channel.endsWith("}")) {
			throw new IllegalArgumentException("'" + channel + "' is not a release channel under prefix '" + this.prefix + "'");
		}
		return channel.substring(start.length(), channel.length() - 1);
	}

}
