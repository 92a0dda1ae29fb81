package dev.locksmith.core.internal;

import dev.locksmith.annotation.LockMode;

/**
 * The value of the {@code mode} tag of Locksmith's observations and of its health's held locks by mode:
 * {@code write}, {@code read} or {@code permits}.
 */
public final class LockModeTags {

	/** The tag of an exclusive lock. */
	public static final String WRITE = "write";

	/** The tag of a read lock. */
	public static final String READ = "read";

	/** The tag of one of a number of permits. */
	public static final String PERMITS = "permits";

	private LockModeTags() {
	}

	/** {@code permits} for a lock of several permits, else the mode in lower case. */
	public static String of(LockMode mode, int permits) {
		return (permits > 1) ? PERMITS : (mode == LockMode.READ) ? READ : WRITE;
	}

}
