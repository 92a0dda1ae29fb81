package dev.locksmith.core.internal;

import java.net.InetAddress;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.HexFormat;

import org.jspecify.annotations.Nullable;

/**
 * Makes owner tokens {@code <instance id>:<128 random bits in hex>}, followed by {@code ;<lock name>}
 * (URL-encoded, so without {@code ':'}) for a named lock: unguessable, so only the owner can release or
 * extend, and readable, so the cluster view can say which instance holds which lock. The name costs no
 * key and no round trip: it travels in the value that the lock key holds anyway, and the scripts only
 * compare tokens whole.
 */
public final class OwnerTokens {

	/** What extend.lua appends to the owner token of a lock released before its minimum hold ended. */
	private static final String RELEASED = "+released";

	/** Separates the random part from the lock's encoded name; neither the hex nor the encoded name holds it. */
	private static final char NAME_SEPARATOR = ';';

	private final String instanceId;

	private final SecureRandom random = new SecureRandom();

	public OwnerTokens(String instanceId) {
		if (instanceId == null || instanceId.isBlank()) {
			throw new IllegalArgumentException("instanceId must not be blank, was " + instanceId);
		}
		this.instanceId = instanceId;
	}

	/** {@code <host>-<pid>}: tells the instances of one machine apart. */
	public static String defaultInstanceId() {
		String host;
		try {
			host = InetAddress.getLocalHost().getHostName();
		}
		catch (UnknownHostException ex) {
			host = "unknown-host";
		}
		return host + "-" + ProcessHandle.current().pid();
	}

	/** A new owner token of this instance, for an unnamed lock. */
	public String next() {
		return next(null);
	}

	/** A new owner token of this instance, for a lock called {@code name} (or unnamed: {@code null}). */
	public String next(@Nullable String name) {
		byte[] bytes = new byte[16];
		this.random.nextBytes(bytes);
		String token = this.instanceId + ":" + HexFormat.of().formatHex(bytes);
		return (name != null) ? token + NAME_SEPARATOR + URLEncoder.encode(name, StandardCharsets.UTF_8) : token;
	}

	/** The id of the instance that made {@code ownerToken}, also of a reader's or permit holder's. */
	public static String instanceOf(String ownerToken) {
		String share = Shares.shareOf(ownerToken);
		String owner = (share != null) ? ownerToken.substring(share.length() + 1) : ownerToken;
		int separator = owner.lastIndexOf(':');
		return (separator > 0) ? owner.substring(0, separator) : owner;
	}

	/** The name of the lock that {@code ownerToken} was made for, or {@code null} for an unnamed lock. */
	public static @Nullable String nameOf(String ownerToken) {
		// A lock kept for its minimum hold after release names its owner's token followed by "+released".
		String token = ownerToken.endsWith(RELEASED) ? ownerToken.substring(0, ownerToken.length() - RELEASED.length())
				: ownerToken;
		int separator = token.indexOf(NAME_SEPARATOR, token.lastIndexOf(':') + 1);
		return (separator >= 0) ? URLDecoder.decode(token.substring(separator + 1), StandardCharsets.UTF_8) : null;
	}

}
