package dev.locksmith.redis;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.locksmith.annotation.LockMode;
import dev.locksmith.core.KeyMasking;
import dev.locksmith.core.LockOwner;
import dev.locksmith.core.LockShare;

/**
 * How the scripts write an owner, in a wait queue, a holders' set and a lock's value: an exclusive owner
 * as its token, a reader as {@code @read/<token>} and a permit holder as {@code @permits=<n>/<token>}.
 * While shares are held, the lock's value is the share itself ({@code @read}), so a release can tell
 * readers from writers among its waiters without another key; {@code extend.lua} keeps a lock released
 * before its minimum hold ended under its owner's entry followed by {@code +released}.
 */
final class RedisOwners {

	private static final Pattern SHARED = Pattern.compile("^(@read|@permits=(\\d+))/");

	private static final String RELEASED = "+released";

	/** The value of a lock that readers or permit holders share: {@code @read}, {@code @permits=4}. */
	private static final Pattern SHARE = Pattern.compile("@(read|permits=\\d+)");

	private RedisOwners() {
	}

	/** The entry of {@code owner} that the scripts keep and compare. */
	static String entryOf(LockOwner owner) {
		LockShare share = owner.share();
		if (share.exclusive()) {
			return owner.token();
		}
		return ((share.mode() == LockMode.READ) ? "@read" : "@permits=" + share.permits()) + "/" + owner.token();
	}

	/** The owner's token in a queue entry, as a hand-over notice names its waiter: without its share. */
	static String tokenOf(String entry) {
		Matcher matcher = SHARED.matcher(entry);
		return matcher.find() ? entry.substring(matcher.end()) : entry;
	}

	/** The owner's token in a lock's value or holders' set, without its share or a {@code +released} mark. */
	static String holderOf(String entry) {
		String token = tokenOf(entry);
		return token.endsWith(RELEASED) ? token.substring(0, token.length() - RELEASED.length()) : token;
	}

	/** Whether a lock's value is a share ({@code @read} or {@code @permits=<n>}) rather than one owner's token. */
	static boolean isShare(String value) {
		return SHARE.matcher(value).matches();
	}

	/** The share a lock valued {@code share} ({@code @read} or {@code @permits=<n>}) gives each holder. */
	static LockShare typed(String share) {
		Matcher matcher = SHARED.matcher(share + "/");
		return (matcher.find() && matcher.group(2) != null) ? LockShare.permits(Integer.parseInt(matcher.group(2)))
				: LockShare.READ;
	}

	/** The failure of a call for {@code owner}'s permits while the key is held with {@code heldPermits}. */
	static IllegalStateException permitsMismatch(String key, LockOwner owner, long heldPermits) {
		return new IllegalStateException("Lock '" + KeyMasking.mask(key) + "' is held with " + heldPermits
				+ " permits; this call asked for " + owner.share().permits()
				+ ": every caller of a key must give the same permit count");
	}

}
