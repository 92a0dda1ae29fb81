package dev.locksmith.jdbc;

import dev.locksmith.core.KeyMasking;
import dev.locksmith.core.LockOwner;
import dev.locksmith.core.LockShare;

/**
 * How the schema's functions write an owner in the lock, share and waiter rows: an exclusive owner as its
 * token, a reader as {@code @read/<token>} and a permit holder as {@code @permits=<n>/<token>}; a shared lock's
 * own row names the share ({@code @read}, {@code @permits=<n>}).
 */
final class JdbcOwners {

	private static final String PERMITS = "@permits=";

	private JdbcOwners() {
	}

	/** The entry of {@code owner} that the functions keep and compare. */
	static String entryOf(LockOwner owner) {
		return owner.share().exclusive() ? owner.token() : labelOf(owner.share()) + "/" + owner.token();
	}

	/** How a lock row names a share that is not exclusive: {@code @read} or {@code @permits=<n>}. */
	private static String labelOf(LockShare share) {
		return share.equals(LockShare.READ) ? "@read" : PERMITS + share.permits();
	}

	/** The share a lock row valued {@code share} ({@code @read} or {@code @permits=<n>}) gives each holder. */
	static LockShare typed(String share) {
		return share.startsWith(PERMITS) ? LockShare.permits(Integer.parseInt(share.substring(PERMITS.length())))
				: LockShare.READ;
	}

	/** The failure of a call for {@code owner}'s permits while the key is held with {@code heldPermits}. */
	static IllegalStateException permitsMismatch(String key, LockOwner owner, long heldPermits) {
		return new IllegalStateException("Lock '" + KeyMasking.mask(key) + "' is held with " + heldPermits
				+ " permits; this call asked for " + owner.share().permits()
				+ ": every caller of a key must give the same permit count");
	}

}
