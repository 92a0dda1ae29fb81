package dev.locksmith.core;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * Hides the user data in lock keys. Exception messages and log lines always mask; the {@code locks}
 * endpoint masks unless {@code management.endpoint.locks.show-values} allows keys; a store of one's own masks
 * keys in its messages with it too.
 *
 * @since 0.1.0
 */
public final class KeyMasking {

	/** What replaces the user data of a key. */
	private static final String MASK = "******";

	/** How many keys a message shows before it counts the rest. */
	private static final int SHOWN_IN_MESSAGES = 3;

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
	 * A key for an operator who may see keys ({@code show}) or not. A lock's name is not user data: a
	 * keyless lock's key, which is its {@code name}, shows whole; a key that starts with its lock's name
	 * and {@code ':'} shows as {@code <name>:******}, so operators see which lock without seeing whose;
	 * any other key, or a key whose name is not known, shows as {@code ******}.
	 */
	public static String mask(@Nullable String name, String key, boolean show) {
		if (show || key.equals(name)) {
			return key;
		}
		return (name != null && key.startsWith(name + ":")) ? name + ":" + MASK : MASK;
	}

	/**
	 * A key of the lock called {@code name} for a message or a log line: as {@link #mask(String, String, boolean)}
	 * shows it unshown, or as {@link #mask(String)} for an unnamed lock.
	 */
	public static String mask(@Nullable String name, String key) {
		return (name != null) ? mask(name, key, false) : mask(key);
	}

	/** The keys as messages show them, masked: {@code 'a:******'}, {@code 'a:******', 'b:******'} or a few and a count. */
	public static String describe(List<String> keys) {
		StringBuilder text = new StringBuilder();
		for (int i = 0; i < Math.min(keys.size(), SHOWN_IN_MESSAGES); i++) {
			text.append(i == 0 ? "" : ", ").append('\'').append(mask(keys.get(i))).append('\'');
		}
		if (keys.size() > SHOWN_IN_MESSAGES) {
			text.append(" and ").append(keys.size() - SHOWN_IN_MESSAGES).append(" more");
		}
		return text.toString();
	}

}
