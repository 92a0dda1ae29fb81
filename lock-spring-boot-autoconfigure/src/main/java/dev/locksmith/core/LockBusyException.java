package dev.locksmith.core;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import dev.locksmith.core.internal.KeyMasking;

/**
 * Another owner held the lock for the whole wait.
 *
 * @since 0.1.0
 */
public class LockBusyException extends DistributedLockException {

	private final String key;

	private final Duration waited;

	public LockBusyException(String key, Duration waited) {
		this(null, key, waited);
	}

	/** The lock called {@code name} stayed busy: the message shows the name, and masks only the key's value. */
	public LockBusyException(@Nullable String name, String key, Duration waited) {
		super("Lock '" + KeyMasking.mask(name, key) + "' is held by another owner (waited " + waited.toMillis()
				+ "ms)");
		this.key = key;
		this.waited = waited;
	}

	/** The key of the busy lock; the message shows it {@linkplain KeyMasking masked}. */
	public String getKey() {
		return this.key;
	}

	/** How long the caller waited before giving up. */
	public Duration getWaited() {
		return this.waited;
	}

}
