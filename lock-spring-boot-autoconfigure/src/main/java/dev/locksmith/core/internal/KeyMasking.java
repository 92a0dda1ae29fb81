package dev.locksmith.core.internal;

/**
 * Hides the user data in lock keys: a key {@code <name>:<value>} shows as {@code <name>:******},
 * so operators see which lock without seeing whose. Exception messages and log lines always mask;
 * the {@code locks} endpoint masks unless {@code locksmith.actuator.show-keys} allows keys.
 */
public final class KeyMasking {

	/** What replaces the user data of a key. */
	public static final String MASK = "******";

	private KeyMasking() {
	}

	/**
	 * The key with everything after its name masked. A key without {@code ':'} is a lock name only
	 * (a method locked as a whole) and shows as it is.
	 */
	public static String mask(String key) {
		int separator = key.indexOf(':');
		return (separator >= 0) ? key.substring(0, separator + 1) + MASK : key;
	}

	/** The key itself when {@code show}, else {@linkplain #mask(String) masked}. */
	public static String mask(String key, boolean show) {
		return show ? key : mask(key);
	}

	/** The lock name: the part of the key before the first {@code ':'}. */
	public static String nameOf(String key) {
		int separator = key.indexOf(':');
		return (separator >= 0) ? key.substring(0, separator) : key;
	}

}
