package dev.locksmith.actuate;

/**
 * Hides the user data in lock keys: a key {@code <name>:<value>} shows as {@code <name>:******},
 * so operators see which lock without seeing whose.
 */
final class KeyMasking {

	static final String MASK = "******";

	private KeyMasking() {
	}

	static String mask(String key, boolean show) {
		if (show) {
			return key;
		}
		int separator = key.indexOf(':');
		return (separator >= 0) ? key.substring(0, separator + 1) + MASK : key;
	}

	/** The lock name: the part of the key before the first {@code ':'}. */
	static String nameOf(String key) {
		int separator = key.indexOf(':');
		return (separator >= 0) ? key.substring(0, separator) : key;
	}

}
