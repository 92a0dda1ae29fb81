package dev.locksmith.redis;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * Names the Redis keys and channel of a lock: {@code <prefix>[<kind>:]{<key>}}. The application's
 * key is the whole hash tag, so a lock, its fencing counter and its queue always share one cluster
 * hash slot. Inside the tag, {@code %}, <code>{</code> and <code>}</code> are written as {@code %25},
 * {@code %7B} and {@code %7D}: no key can end the tag early or empty it, and two different keys
 * never give the same Redis key.
 */
final class RedisLockKeys {

	/** The kinds of Redis name a lock has, each {@code <prefix><kind>{<key>}}. */
	enum Kind {

		/** The key that holds the owner token. */
		LOCK(""),
		/** The fencing counter. */
		FENCE("fence:"),
		/** The list of the waiters' owner tokens, first come first. */
		QUEUE("queue:"),
		/** The hash of each waiter's deadline. */
		DEADLINES("deadlines:"),
		/** The sorted set of the holders of shares. */
		HOLDERS("holders:"),
		/** The pub/sub channel of hand-overs. */
		CHANNEL("released:");

		private final String tag;

		Kind(String tag) {
			this.tag = tag;
		}

	}

	private final String prefix;

	/** The start of each kind's names, {@code <prefix><kind>{}, in UTF-8, by {@link Kind#ordinal()}. */
	private final byte[][] starts;

	RedisLockKeys(String prefix) {
		if (prefix.contains("{") || prefix.contains("}")) {
			throw new IllegalArgumentException("key prefix must not contain '{' or '}', was '" + prefix + "'");
		}
		this.prefix = prefix;
		this.starts = Arrays.stream(Kind.values())
			.map((kind) -> (prefix + kind.tag + "{").getBytes(StandardCharsets.UTF_8))
			.toArray(byte[][]::new);
	}

	/**
	 * The application's {@code key} as the inside of its hash tag, in UTF-8: encoded once for all the names
	 * a script call sends ({@link #name(Kind, byte[])}).
	 */
	static byte[] tag(String key) {
		return encode(key).getBytes(StandardCharsets.UTF_8);
	}

	/** The Redis name of {@code kind} of the key whose {@link #tag(String)} is {@code tag}, in UTF-8. */
	byte[] name(Kind kind, byte[] tag) {
		byte[] start = this.starts[kind.ordinal()];
		byte[] name = Arrays.copyOf(start, start.length + tag.length + 1);
		System.arraycopy(tag, 0, name, start.length, tag.length);
		name[name.length - 1] = '}';
		return name;
	}

	/** The Redis key that holds the owner token of {@code key}. */
	public String lockKey(String key) {
		return name(Kind.LOCK, key);
	}

	/** The Redis key that counts the fencing tokens of {@code key}. */
	public String fenceKey(String key) {
		return name(Kind.FENCE, key);
	}

	/** The application's key of a Redis lock key, the reverse of {@link #lockKey(String)}. */
	String keyOf(String lockKey) {
		return keyOf(lockKey, Kind.LOCK, "lock key");
	}

	/** The {@code SCAN} pattern that matches every wait queue, and no other key. */
	String queueKeyPattern() {
		return globPrefix() + Kind.QUEUE.tag + "{*";
	}

	/** The application's key of a wait queue, the reverse of {@link #queueKey(String)}. */
	String keyOfQueue(String queueKey) {
		return keyOf(queueKey, Kind.QUEUE, "queue key");
	}

	/** The {@code SCAN} pattern that matches every lock key, and no fencing counter, queue or channel. */
	public String lockKeyPattern() {
		return globPrefix() + "{*";
	}

	/** The ACL patterns of every key ({@code ~}) and channel ({@code &}) of every lock under the prefix. */
	List<String> aclPatterns() {
		String prefix = globPrefix();
		return Arrays.stream(Kind.values())
			.map((kind) -> ((kind == Kind.CHANNEL) ? "&" : "~") + prefix + kind.tag + "{*")
			.toList();
	}

	private String globPrefix() {
		return this.prefix.replaceAll("([*?\\[\\]\\\\])", "\\\\$1");
	}

	/** The Redis list of the owner tokens waiting for {@code key}, first come first. */
	String queueKey(String key) {
		return name(Kind.QUEUE, key);
	}

	/** The Redis hash of the deadline of each waiter for {@code key}. */
	String deadlinesKey(String key) {
		return name(Kind.DEADLINES, key);
	}

	/** The Redis sorted set of the owner tokens holding shares of {@code key}, scored by their lease ends. */
	String holdersKey(String key) {
		return name(Kind.HOLDERS, key);
	}

	/**
	 * The pub/sub channel on which a release of {@code key} hands it to a waiter: in the lock's hash slot, as
	 * a shard channel that its scripts publish on must be.
	 */
	String releaseChannel(String key) {
		return name(Kind.CHANNEL, key);
	}

	/** The application's key of a release channel, the reverse of {@link #releaseChannel(String)}. */
	String keyOfChannel(String channel) {
		return keyOf(channel, Kind.CHANNEL, "release channel");
	}

	private String name(Kind kind, String key) {
		return this.prefix + kind.tag + "{" + encode(key) + "}";
	}

	private String keyOf(String name, Kind kind, String what) {
		String start = this.prefix + kind.tag + "{";
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
