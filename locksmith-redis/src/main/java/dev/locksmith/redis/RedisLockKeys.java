package dev.locksmith.redis;

import java.util.List;

/**
 * Names the Redis keys and channel of a lock: {@code <prefix>[<kind>:]{<key>}}. The application's
 * key is the whole hash tag, so a lock, its fencing counter and its queue always share one cluster
 * hash slot. Inside the tag, {@code %}, <code>{</code> and <code>}</code> are written as {@code %25},
 * {@code %7B} and {@code %7D}: no key can end the tag early or empty it, and two different keys
 * never give the same Redis key.
 */
final class RedisLockKeys {

	private final String prefix;

	RedisLockKeys(String prefix) {
		if (prefix.contains("{") || prefix.contains("}")) {
			throw new IllegalArgumentException("key prefix must not contain '{' or '}', was '" + prefix + "'");
		}
		this.prefix = prefix;
	}

	/** The Redis key that holds the owner token of {@code key}. */
	public String lockKey(String key) {
		return name("", key);
	}

	/** The Redis key that counts the fencing tokens of {@code key}. */
	public String fenceKey(String key) {
		return name("fence:", key);
	}

	/** The application's key of a Redis lock key, the reverse of {@link #lockKey(String)}. */
	String keyOf(String lockKey) {
		return keyOf(lockKey, "", "lock key");
	}

	/** The {@code SCAN} pattern that matches every wait queue, and no other key. */
	String queueKeyPattern() {
		return globPrefix() + "queue:{*";
	}

	/** The application's key of a wait queue, the reverse of {@link #queueKey(String)}. */
	String keyOfQueue(String queueKey) {
		return keyOf(queueKey, "queue:", "queue key");
	}

	/** The {@code SCAN} pattern that matches every lock key, and no fencing counter, queue or channel. */
	public String lockKeyPattern() {
		return globPrefix() + "{*";
	}

	/** The ACL patterns of every key ({@code ~}) and channel ({@code &}) of every lock under the prefix. */
	List<String> aclPatterns() {
		String prefix = globPrefix();
		return List.of("~" + prefix + "{*", "~" + prefix + "fence:{*", "~" + prefix + "queue:{*",
				"~" + prefix + "deadlines:{*", "~" + prefix + "holders:{*", "&" + prefix + "released:{*");
	}

	private String globPrefix() {
		return this.prefix.replaceAll("([*?\\[\\]\\\\])", "\\\\$1");
	}

	/** The Redis list of the owner tokens waiting for {@code key}, first come first. */
	String queueKey(String key) {
		return name("queue:", key);
	}

	/** The Redis hash of the deadline of each waiter for {@code key}. */
	String deadlinesKey(String key) {
		return name("deadlines:", key);
	}

	/** The Redis sorted set of the owner tokens holding shares of {@code key}, scored by their lease ends. */
	String holdersKey(String key) {
		return name("holders:", key);
	}

	/**
	 * The pub/sub channel on which a release of {@code key} hands it to a waiter: in the lock's hash slot, as
	 * a shard channel that its scripts publish on must be.
	 */
	String releaseChannel(String key) {
		return name("released:", key);
	}

	/** The application's key of a release channel, the reverse of {@link #releaseChannel(String)}. */
	String keyOfChannel(String channel) {
		return keyOf(channel, "released:", "release channel");
	}

	private String name(String kind, String key) {
		return this.prefix + kind + "{" + encode(key) + "}";
	}

	private String keyOf(String name, String kind, String what) {
		String start = this.prefix + kind + "{";
		if (!name.startsWith(start) || !name.endsWith("}") || name.length() < start.length() + 2) {
			throw new IllegalArgumentException("'" + name + "' is not a " + what + " under prefix '" + this.prefix + "'");
		}
		return decode(name.substring(start.length(), name.length() - 1), name, what);
	}

	private static String encode(String key) {
		if (key.indexOf('%') < 0 && key.indexOf('{') < 0 && key.indexOf('}') < 0) {
			return key;
		}
		StringBuilder encoded = new StringBuilder(key.length() + 8);
		for (int i = 0; i < key.length(); i++) {
			char c = key.charAt(i);
			switch (c) {
				case '%' -> encoded.append("%25");
				case '{' -> encoded.append("%7B");
				case '}' -> encoded.append("%7D");
				default -> encoded.append(c);
			}
		}
		return encoded.toString();
	}

	private String decode(String encoded, String name, String what) {
		StringBuilder key = new StringBuilder(encoded.length());
		for (int i = 0; i < encoded.length(); i++) {
			char c = encoded.charAt(i);
			if (c == '{' || c == '}') {
				throw notEncoded(name, what);
			}
			if (c != '%') {
				key.append(c);
				continue;
			}
			String escape = (i + 3 <= encoded.length()) ? encoded.substring(i, i + 3) : "";
			switch (escape) {
				case "%25" -> key.append('%');
				case "%7B" -> key.append('{');
				case "%7D" -> key.append('}');
				default -> throw notEncoded(name, what);
			}
			i += 2;
		}
		return key.toString();
	}

	private IllegalArgumentException notEncoded(String name, String what) {
		return new IllegalArgumentException(
				"'" + name + "' is not a " + what + " under prefix '" + this.prefix + "': bad escape in its key");
	}

}
