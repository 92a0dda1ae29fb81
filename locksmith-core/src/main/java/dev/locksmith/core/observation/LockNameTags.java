package dev.locksmith.core.observation;

import org.jspecify.annotations.Nullable;

/** The value of the {@code name} tag of Locksmith's metrics and observations: a bounded set, never a key. */
final class LockNameTags {

	private LockNameTags() {
	}

	/** The lock's name, or {@code unnamed} for a lock without one. */
	static String of(@Nullable String name) {
		return (name != null) ? name : "unnamed";
	}

}
