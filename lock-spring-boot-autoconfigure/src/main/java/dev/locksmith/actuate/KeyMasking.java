package dev.locksmith.actuate;

import org.jspecify.annotations.Nullable;

/**
 * Hides the user data in lock keys. A key that starts with its lock's name and {@code ':'}, as the keys
 * of {@code @DistributedLock} do, shows as {@code <name>:******}, so operators see which lock without
 * seeing whose; any other key, or a key whose name is not known, shows as {@code ******}.
 */
final class KeyMasking {

	static final String MASK = "******";

	private KeyMasking() {
	}

	static String mask(@Nullable String name, String key, boolean show) {
		if (show) {
			return key;
		}
		return (name != null && key.startsWith(name + ":")) ? name + ":" + MASK : MASK;
	}

}
