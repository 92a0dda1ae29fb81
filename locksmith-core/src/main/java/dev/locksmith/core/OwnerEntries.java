package dev.locksmith.core;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import dev.locksmith.annotation.LockMode;

/**
 * The string form of a {@link LockOwner}, for a store that keeps owners as strings in its queues and
 * holders, as Locksmith's Redis and in-memory stores do: an exclusive owner as its token, a reader as
 * {@code @read/<token>} and a permit holder as {@code @permits=<n>/<token>}. While shares are held, a
 * lock's holder is the share itself ({@code @read}), so a release tells readers from writers among its
 * waiters; a holder released before its minimum hold ended is kept as its entry followed by
 * {@code +released}. Processes of two versions share this format during a rolling upgrade.
 */
public final class OwnerEntries {

	private static final Pattern SHARED = Pattern.compile("^(@read|@permits=(\\d+))/");

	private static final String RELEASED = "+released";

	private OwnerEntries() {
	}

	/** The entry of {@code owner}. */
	public static String of(LockOwner owner) {
		LockShare share = owner.share();
		if (share.exclusive()) {
			return owner.token();
		}
		return ((share.mode() == LockMode.READ) ? "@read" : "@permits=" + share.permits()) + "/" + owner.token();
	}

	/** The share {@code entry} asks for, such as {@code @read}, or {@code null} for an exclusive owner. */
	public static @Nullable String shareOf(String entry) {
		Matcher matcher = SHARED.matcher(entry);
		return matcher.find() ? matcher.group(1) : null;
	}

	/** How many holders {@code share} ({@code @read} or {@code @permits=<n>}) admits at once; 0 for readers, who have no limit. */
	public static int permitsOf(String share) {
		Matcher matcher = SHARED.matcher(share + "/");
		return (matcher.find() && matcher.group(2) != null) ? Integer.parseInt(matcher.group(2)) : 0;
	}

	/** The share a lock held as {@code share} ({@code @read} or {@code @permits=<n>}) gives each holder. */
	public static LockShare typed(String share) {
		int permits = permitsOf(share);
		return (permits > 0) ? LockShare.permits(permits) : LockShare.READ;
	}

	/** The owner's token in a queue entry, as a hand-over names its waiter: without its share. */
	public static String tokenOf(String entry) {
		String share = shareOf(entry);
		return (share != null) ? entry.substring(share.length() + 1) : entry;
	}

	/** The owner's token in a holder's entry, without its share or a {@code +released} mark. */
	public static String holderOf(String entry) {
		String token = tokenOf(entry);
		return token.endsWith(RELEASED) ? token.substring(0, token.length() - RELEASED.length()) : token;
	}

	/** The entry of a holder that released before its minimum hold ended. */
	public static String released(String entry) {
		return entry + RELEASED;
	}

	/** The failure of a call for {@code asked} permits of {@code key} while it is held with {@code held}. */
	public static IllegalStateException permitsMismatch(String key, int asked, long held) {
		return new IllegalStateException("Lock '" + KeyMasking.mask(key) + "' is held with " + held
				+ " permits; this call asked for " + asked + ": every caller of a key must give the same permit count");
	}

}
