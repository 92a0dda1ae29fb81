package dev.locksmith.core;

import java.util.Map;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

/**
 * The lease ended, or another owner took the lock, while the protected work was still running.
 *
 * @since 0.1.0
 */
public class LockLostException extends DistributedLockException {

	private final String key;

	private final Map<String, Long> fencingTokens;

	public LockLostException(String key, long fencingToken) {
		this(null, key, Map.of(key, fencingToken));
	}

	/** The lock of {@code handle} was lost: names its keys and their fencing tokens. */
	public LockLostException(LockHandle handle) {
		this(null, handle);
	}

	/** The lock called {@code name} of {@code handle} was lost: the message names it, masking the key's value. */
	public LockLostException(@Nullable String name, LockHandle handle) {
		this(name, handle.key(), handle.fencingTokens());
	}

	private LockLostException(@Nullable String name, String key, Map<String, Long> fencingTokens) {
		super("Lock '" + KeyMasking.mask(name, key) + "' (" + describe(fencingTokens)
				+ ") was lost while its work ran");
		this.key = key;
		this.fencingTokens = fencingTokens;
	}

	private static String describe(Map<String, Long> fencingTokens) {
		return (fencingTokens.size() == 1) ? "fencing token " + fencingTokens.values().iterator().next()
				: "fencing tokens " + masked(fencingTokens);
	}

	private static String masked(Map<String, Long> fencingTokens) {
		return fencingTokens.entrySet()
			.stream()
			.map((entry) -> KeyMasking.mask(entry.getKey()) + "=" + entry.getValue())
			.collect(Collectors.joining(", ", "{", "}"));
	}

	/** The key of the lost lock; the message shows it {@linkplain KeyMasking masked}. */
	public String getKey() {
		return this.key;
	}

	/**
	 * The fencing token of the lost grant.
	 * @throws IllegalStateException for a lock of several keys; see {@link #getFencingTokens()}
	 */
	public long getFencingToken() {
		if (this.fencingTokens.size() != 1) {
			throw new IllegalStateException("Lock of keys " + masked(this.fencingTokens)
					+ " had a fencing token per key; see getFencingTokens()");
		}
		return this.fencingTokens.values().iterator().next();
	}

	/** The fencing token of each key of the lost grant. */
	public Map<String, Long> getFencingTokens() {
		return this.fencingTokens;
	}

}
