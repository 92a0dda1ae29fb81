package dev.locksmith.core;

import java.util.Objects;

/**
 * Who asks a store for a lock, and for what share of it. The token is unguessable, so that only its owner
 * releases or extends what it holds, and readable: it names the instance that made it and the lock's name,
 * which a store lists by giving the token to {@link LockAdministration.StoredLock#of}.
 *
 * @param token the owner's token: a store compares it whole, and keeps it as the holder of what it grants
 * @param share what the owner asks for
 * @since 0.1.0
 */
public record LockOwner(String token, LockShare share) {

	public LockOwner {
		Objects.requireNonNull(token, "token must not be null");
		Objects.requireNonNull(share, "share must not be null");
	}

	/** An exclusive owner with {@code token}. */
	public static LockOwner exclusive(String token) {
		return new LockOwner(token, LockShare.EXCLUSIVE);
	}

}
