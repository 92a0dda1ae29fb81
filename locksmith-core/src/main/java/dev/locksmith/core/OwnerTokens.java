package dev.locksmith.core;

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
 * (URL-encoded with a space as {@code %20}, so without {@code ':'} or {@code '+'}, which a store may append
 * as a mark of its own) for a named lock: unguessable, so only the owner can release or
 * extend, and readable, so the cluster view can say which instance holds which lock. The name costs no
 * key and no round trip: it travels in the value that the lock key holds anyway, and the scripts only
 * compare tokens whole.
 */
final class OwnerTokens {

	/** Separates the random part from the lock's encoded name; neither the hex nor the encoded name holds it. */
	private static final char NAME_SEPARATOR = ';';

	private final String instanceId;

	private final SecureRandom random = new SecureRandom();

	OwnerTokens(String instanceId) {
		if (instanceId == null || instanceId.isBlank()) {
			throw new IllegalArgumentException("instanceId must not be blank, was " + instanceId);
		}
		this.instanceId = instanceId;
	}

	/** {@code <host>-<pid>}: tells the instances of one machine apart. */
	static String defaultInstanceId() {
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
	String next() {
		return next(null);
	}

	/** A new owner token of this instance, for a lock called {@code name} (or unnamed: {@code null}). */
	String next(@Nullable String name) {
		byte[] bytes = new byte[16];
		this.random.nextBytes(bytes);
		String token = this.instanceId + ":" + HexFormat.of().formatHex(bytes);
		return (name != null)
				? token + NAME_SEPARATOR + URLEncoder.encode(name, StandardCharsets.UTF_8).replace("+", "%20") : token;
	}

	/** The id of the instance that made {@code ownerToken}. */
	static String instanceOf(String ownerToken) {
		int separator = ownerToken.lastIndexOf(':');
		return (separator > 0) ? ownerToken.substring(0, separator) : ownerToken;
	}

	/** The name of the lock that {@code ownerToken} was made for, or {@code null} for an unnamed lock. */
	static @Nullable String nameOf(String ownerToken) {
		int separator = ownerToken.indexOf(NAME_SEPARATOR, ownerToken.lastIndexOf(':') + 1);
		return (separator >= 0) ? URLDecoder.decode(ownerToken.substring(separator + 1), StandardCharsets.UTF_8) : null;
	}

}
