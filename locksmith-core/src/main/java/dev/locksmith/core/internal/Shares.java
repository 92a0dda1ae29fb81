package dev.locksmith.core.internal;

import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import dev.locksmith.annotation.LockMode;
import dev.locksmith.core.LockOptions;

/**
 * Names the share that an owner token asks for. The token of a reader or permit holder is
 * {@code <share>/<owner token>}, where the share is {@code @read} or {@code @permits=<n>}: the store
 * keeps it in the wait queue and, while shares are held, as the lock's value, so a release can tell
 * readers from writers among its waiters without another key. An exclusive owner's token has no share.
 */
public final class Shares {

	private static final Pattern SHARED = Pattern.compile("^(@read|@permits=(\\d+))/");

	private Shares() {
	}

	/** The owner token for a grant under {@code options}: {@code ownerToken} itself for an exclusive lock. */
	public static String token(LockOptions options, String ownerToken) {
		String share = shareOf(options);
		return (share != null) ? share + "/" + ownerToken : ownerToken;
	}

	/** The share a grant under {@code options} holds, such as {@code @read}, or {@code null} when exclusive. */
	public static @Nullable String shareOf(LockOptions options) {
		if (options.exclusive()) {
			return null;
		}
		return (options.mode() == LockMode.READ) ? "@read" : "@permits=" + options.permits();
	}

	/** The share {@code ownerToken} asks for, such as {@code @read}, or {@code null} for an exclusive owner. */
	public static @Nullable String shareOf(String ownerToken) {
		Matcher matcher = SHARED.matcher(ownerToken);
		return matcher.find() ? matcher.group(1) : null;
	}

	/** How many holders {@code share} admits at once; 0 for readers, who have no limit. */
	public static int permitsOf(String share) {
		Matcher matcher = SHARED.matcher(share + "/");
		return (matcher.find() && matcher.group(2) != null) ? Integer.parseInt(matcher.group(2)) : 0;
	}

	/** Who holds {@code share}, for messages: "a reader", "one of 4 permit holders", or "a writer" for none. */
	public static String holderOf(@Nullable String share) {
		if (share == null) {
			return "a writer";
		}
		int permits = permitsOf(share);
		return (permits > 0) ? "one of " + permits + " permit holders" : "a reader";
	}

	/** The failure of a call for {@code ownerToken}'s permits while the key is held with {@code heldPermits}. */
	public static IllegalStateException permitsMismatch(String key, String ownerToken, long heldPermits) {
		String asked = Objects.requireNonNull(shareOf(ownerToken));
		return new IllegalStateException("Lock '" + KeyMasking.mask(key) + "' is held with " + heldPermits
				+ " permits; this call asked for " + permitsOf(asked)
				+ ": every caller of a key must give the same permit count");
	}

}
