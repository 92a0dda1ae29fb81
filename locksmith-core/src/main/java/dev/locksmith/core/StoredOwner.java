package dev.locksmith.core;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * Who an owner token in a store names, without its secret part: the instance, the lock's name, and the
 * thread that asked and when, which tokens carry since the wait-for graph came. A store lists an owner by
 * giving its token to {@link #of(String)}.
 *
 * @param instance the id of the instance that asked
 * @param name the lock's name, or {@code null} for an unnamed lock
 * @param thread the id of the thread that asked, in its instance, or {@code null} when the token does not say
 * @param askedAt when it asked, on its instance's clock, or {@code null} when the token does not say
 * @since 0.1.0
 */
public record StoredOwner(String instance, @Nullable String name, @Nullable String thread, @Nullable Instant askedAt) {

	/** The owner that {@code ownerToken} names. */
	public static StoredOwner of(String ownerToken) {
		return new StoredOwner(OwnerTokens.instanceOf(ownerToken), OwnerTokens.nameOf(ownerToken),
				OwnerTokens.threadOf(ownerToken), OwnerTokens.askedAtOf(ownerToken));
	}

	/**
	 * The thread across the fleet, {@code <instance>#<thread>}, that holds and waits as one in the wait-for
	 * graph; {@code null} when the token does not name its thread.
	 */
	public @Nullable String threadId() {
		return (this.thread != null) ? this.instance + "#" + this.thread : null;
	}

}
