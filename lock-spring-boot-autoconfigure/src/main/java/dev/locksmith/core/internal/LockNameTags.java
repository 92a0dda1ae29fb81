package dev.locksmith.core.internal;

import org.jspecify.annotations.Nullable;

/** The value of the {@code name} tag of Locksmith's metrics and observations: a bounded set, never a key. */
public final class LockNameTags {

	private LockNameTags() {
	}

	/** The lock's name, or {@code unnamed} for a lock without one. */
	public static String of(@Nullable String name) {
		return (name != null) ? name : "unnamed";
	}

}
