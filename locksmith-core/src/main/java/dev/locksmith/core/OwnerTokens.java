package dev.locksmith.core;

import java.net.InetAddress;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * Makes owner tokens {@code <instance id>:<128 random bits in 22 base 64 digits>-<thread>-<asked at>}, followed by
 * {@code ;<lock name>}
 * (URL-encoded with a space as {@code %20}, so without {@code ':'} or {@code '+'}, which a store may append
 * as a mark of its own) for a named lock: unguessable, so only the owner can release or
 * extend, and readable, so the cluster view can say which instance holds which lock. The name costs no
 * key and no round trip: it travels in the value that the lock key holds anyway, and the scripts only
 * compare tokens whole. The stamp after the random bits, in base 36, is the id of the thread that asked
 * and when it asked (epoch milliseconds on this instance's clock): the wait-for graph joins a thread's
 * holds to its waits by it, and a waiter's token tells since when it waits. The random bits come from several independent generators, one picked at random
 * for each token: one {@link SecureRandom} is a monitor that every locking thread queues on (a profile at
 * 8 threads showed waits of 10 ms and more on it, on a loaded machine).
 */
final class OwnerTokens {

	/** Separates the random part from the lock's encoded name; neither the random digits nor the encoded name hold it. */
	private static final char NAME_SEPARATOR = ';';

	/** Separates the random part, the thread and the time of asking; neither the random digits nor base 36 hold it. */
	private static final char STAMP_SEPARATOR = '-';

	private static final int RADIX = 36;

	/** A number in a stamp: base 36, short enough for a {@code long}. */
	private static final Pattern STAMP_PART = Pattern.compile("[0-9a-z]{1,12}");

	private final String instanceId;

	/** How many independent generators the tokens are drawn from. */
	private static final int GENERATORS = 8;

	/**
	 * The digits of the random bits, six bits each: the URL-safe base 64 alphabet with {@code '.'} for its
	 * {@code '-'}, so 22 characters instead of 32 in hex, and none of the separators.
	 */
	private static final char[] RANDOM_DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._"
		.toCharArray();

	private static final int BITS_PER_DIGIT = 6;

	private final SecureRandom[] generators = new SecureRandom[GENERATORS];

	OwnerTokens(String instanceId) {
		if (instanceId == null || instanceId.isBlank()) {
			throw new IllegalArgumentException("instanceId must not be blank, was " + instanceId);
		}
		this.instanceId = instanceId;
		for (int i = 0; i < GENERATORS; i++) {
			this.generators[i] = newGenerator();
		}
	}

	/**
	 * A generator with state and a lock of its own: a DRBG (SHA-256 Hash_DRBG, seeded from the system's
	 * entropy), as the default {@code NativePRNG} instances all share one.
	 */
	private static SecureRandom newGenerator() {
		try {
			return SecureRandom.getInstance("DRBG");
		}
		catch (NoSuchAlgorithmException ex) {
			return new SecureRandom();
		}
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
		byte[] random = new byte[16];
		this.generators[ThreadLocalRandom.current().nextInt(GENERATORS)].nextBytes(random);
		StringBuilder token = new StringBuilder(this.instanceId.length() + 48).append(this.instanceId).append(':');
		appendRandomDigits(token, random);
		appendBase36(token.append(STAMP_SEPARATOR), Thread.currentThread().getId());
		appendBase36(token.append(STAMP_SEPARATOR), System.currentTimeMillis());
		if (name != null) {
			token.append(NAME_SEPARATOR).append(URLEncoder.encode(name, StandardCharsets.UTF_8).replace("+", "%20"));
		}
		return token.toString();
	}

	/** Appends {@code random} in {@link #RANDOM_DIGITS}, the last digit padded with zero bits. */
	private static void appendRandomDigits(StringBuilder to, byte[] random) {
		int pending = 0;
		int pendingBits = 0;
		for (byte next : random) {
			pending = (pending << Byte.SIZE) | (next & 0xff);
			pendingBits += Byte.SIZE;
			while (pendingBits >= BITS_PER_DIGIT) {
				pendingBits -= BITS_PER_DIGIT;
				to.append(RANDOM_DIGITS[(pending >>> pendingBits) & 0x3f]);
			}
		}
		if (pendingBits > 0) {
			to.append(RANDOM_DIGITS[(pending << (BITS_PER_DIGIT - pendingBits)) & 0x3f]);
		}
	}

	/** Appends {@code value}, not negative, in base 36 as {@link Long#toString(long, int)} writes it, without its buffer. */
	private static void appendBase36(StringBuilder to, long value) {
		int start = to.length();
		long rest = value;
		do {
			to.append(Character.forDigit((int) (rest % RADIX), RADIX));
			rest /= RADIX;
		}
		while (rest > 0);
		for (int low = start, high = to.length() - 1; low < high; low++, high--) {
			char swapped = to.charAt(low);
			to.setCharAt(low, to.charAt(high));
			to.setCharAt(high, swapped);
		}
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

	/** The id of the thread that asked with {@code ownerToken}, or {@code null} for a token without a stamp. */
	static @Nullable String threadOf(String ownerToken) {
		String[] stamp = stampOf(ownerToken);
		return (stamp != null) ? Long.toString(Long.parseLong(stamp[1], RADIX)) : null;
	}

	/** When the owner of {@code ownerToken} asked, or {@code null} for a token without a stamp. */
	static @Nullable Instant askedAtOf(String ownerToken) {
		String[] stamp = stampOf(ownerToken);
		return (stamp != null) ? Instant.ofEpochMilli(Long.parseLong(stamp[2], RADIX)) : null;
	}

	/** The random part, thread and time of asking of a token, or {@code null} when it has no valid stamp. */
	private static String @Nullable [] stampOf(String ownerToken) {
		int start = ownerToken.lastIndexOf(':') + 1;
		int end = ownerToken.indexOf(NAME_SEPARATOR, start);
		String[] parts = ownerToken.substring(start, (end >= 0) ? end : ownerToken.length())
			.split(String.valueOf(STAMP_SEPARATOR), -1);
		if (parts.length != 3 || !STAMP_PART.matcher(parts[1]).matches() || !STAMP_PART.matcher(parts[2]).matches()) {
			return null;
		}
		return parts;
	}

}
