package dev.locksmith.redis;

/**
 * How far one server's clock is from this process's wall clock, measured with {@code TIME}: the
 * server read its clock somewhere within the round trip, so the estimate takes the middle of it and
 * may be off by up to half the round trip either way.
 *
 * @param node the server's name
 * @param offsetMicros server clock minus local wall clock, in microseconds
 * @param uncertaintyMicros half the round trip, in microseconds: the most the estimate can be off
 */
record ClockOffset(String node, long offsetMicros, long uncertaintyMicros) {

	/**
	 * The offset of a server that answered {@code serverMicros} to a {@code TIME} sent when the local
	 * wall clock read {@code sentWallMicros} and answered {@code roundTripNanos} later:
	 * {@code serverTime - (sent + roundTrip / 2)}.
	 */
	static ClockOffset measured(String node, long sentWallMicros, long roundTripNanos, long serverMicros) {
		long halfRoundTripMicros = roundTripNanos / 2_000;
		return new ClockOffset(node, serverMicros - (sentWallMicros + halfRoundTripMicros), halfRoundTripMicros);
	}

	/**
	 * How far apart this server's clock and {@code other}'s surely are: the difference of the offsets
	 * less both uncertainties, never below zero.
	 */
	long surelyApartFromMicros(ClockOffset other) {
		long apart = Math.abs(this.offsetMicros - other.offsetMicros) - this.uncertaintyMicros - other.uncertaintyMicros;
		return Math.max(0, apart);
	}

	/** The offset in whole milliseconds with its sign, such as {@code +12ms}. */
	String formatted() {
		return millis(this.offsetMicros, true);
	}

	/** {@code micros} in whole milliseconds, rounded, such as {@code 12ms}, or {@code +12ms} with {@code signed}. */
	static String millis(long micros, boolean signed) {
		long millis = Math.round(micros / 1000.0);
		return ((signed && millis >= 0) ? "+" : "") + millis + "ms";
	}

}
