package dev.locksmith.redis;

/** The Redis names of the keys of the default prefix {@code lock:}, for tests outside this package. */
public final class TestLockKeys {

	private static final RedisLockKeys KEYS = new RedisLockKeys("lock:");

	private TestLockKeys() {
	}

	/** The Redis key that holds the owner token of {@code key}. */
	public static String lockKey(String key) {
		return KEYS.lockKey(key);
	}

	/** The Redis key that counts the fencing tokens of {@code key}. */
	public static String fenceKey(String key) {
		return KEYS.fenceKey(key);
	}

	/** The channel on which a release of {@code key} hands it to a waiter. */
	public static String releaseChannel(String key) {
		return KEYS.releaseChannel(key);
	}

	/** A {@code KEYS} pattern that matches every lock key. */
	public static String lockKeyPattern() {
		return KEYS.lockKeyPattern();
	}

}
