package dev.locksmith.core;

import org.jspecify.annotations.Nullable;

/**
 * A protected resource that enforces fencing: a write carries the fencing token of the lock its
 * writer holds, and is applied only when that token is at least the highest one the value has seen,
 * so a holder whose lease ran out while it was paused is rejected once a newer holder wrote. A bean
 * on the lock's Redis with {@code locksmith.store=redis}, in memory with {@code locksmith.store=in-memory}.
 *
 * @since 0.1.0
 */
public interface FencedValues {

	/**
	 * Writes {@code value} under {@code key} unless a write with a higher fencing token came first.
	 * @return whether the write was applied; false means it was rejected as stale
	 */
	boolean write(String key, String value, long fencingToken);

	/** The value last written under {@code key}, or {@code null}. */
	@Nullable String read(String key);

	/** The highest fencing token that a write under {@code key} carried, or 0. */
	long highestToken(String key);

}
