package dev.locksmith.core.internal;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * Makes owner tokens {@code <instance id>:<128 random bits in hex>}: unguessable, so only the owner
 * can release or extend, and readable, so the cluster view can say which instance holds a lock.
 */
public final class OwnerTokens {

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

	/** A new owner token of this instance. */
	public String next() {
		byte[] bytes = new byte[16];
		this.random.nextBytes(bytes);
		return this.instanceId + ":" + HexFormat.of().formatHex(bytes);
	}

	/** The id of the instance that made {@code ownerToken}, also of a reader's or permit holder's. */
	public static String instanceOf(String ownerToken) {
		String share = Shares.shareOf(ownerToken);
		String owner = (share != null) ? ownerToken.substring(share.length() + 1) : ownerToken;
		int separator = owner.lastIndexOf(':');
		return (separator > 0) ? owner.substring(0, separator) : owner;
	}

}
