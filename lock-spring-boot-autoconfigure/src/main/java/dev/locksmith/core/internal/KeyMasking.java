package dev.locksmith.core.internal;

import org.jspecify.annotations.Nullable;

/**
 * Hides the user data in lock keys. Exception messages and log lines always mask; the {@code locks}
 * endpoint masks unless {@code locksmith.actuator.show-keys} allows keys. Not API: its rules may change.
 */
public final class KeyMasking {

	/** What replaces the user data of a key. */
	private static final String MASK = "******";

	private KeyMasking() {
	}

	/**
	 * A key for a message or a log line, where its lock's name is not at hand: what precedes its first
	 * {@code ':'} shows (the lock name, for the {@code <name>:<value>} keys of {@code @DistributedLock}),
	 * the rest is masked; a key without {@code ':'} is masked whole.
	 */
	public static String mask(String key) {
		int separator = key.indexOf(':');
		return (separator >= 0) ? key.substring(0, separator + 1) + MASK : MASK;
	}

	/**
	 * A key for an operator who may see keys ({@code show}) or not. A key that starts with its lock's
	 * {@code name} and {@code ':'} shows as {@code <name>:******}, so operators see which lock without
	 * seeing whose; any other key, or a key whose name is not known, shows as {@code ******}.
	 */
	public static String mask(@Nullable String name, String key, boolean show) {
		if (show) {
			return key;
		}
		return (name != null && key.startsWith(name + ":")) ? name + ":" + MASK : MASK;
	}

}
