package dev.locksmith.benchmarks;

import java.math.BigDecimal;
import java.time.Duration;

import org.springframework.boot.convert.DurationStyle;

import dev.locksmith.testing.FaultyProxy;

/**
 * A delay that a {@link FaultyProxy} adds in each direction between the benchmark clients and
 * Redis: a fixed part and a uniform jitter around it.
 *
 * @param fixed the delay of each chunk of bytes
 * @param jitter how far one chunk's delay may lie either side of {@code fixed}
 */
public record NetworkDelay(Duration fixed, Duration jitter) {

	/** No delay added. */
	public static final NetworkDelay NONE = new NetworkDelay(Duration.ZERO, Duration.ZERO);

	public NetworkDelay {
		if (fixed.isNegative() || jitter.isNegative() || jitter.compareTo(fixed) > 0) {
			throw new IllegalArgumentException(
					"A delay needs 0 <= jitter <= fixed, not " + millis(fixed) + " ± " + millis(jitter));
		}
	}

	/**
	 * Reads {@code 20ms±10ms}, or {@code 20ms+-10ms} where a shell or locale mangles {@code ±}; each
	 * part in any form Spring Boot reads a duration in, the jitter optional.
	 */
	public static NetworkDelay parse(String text) {
		String[] parts = text.replace("+-", "±").split("±", -1);
		if (parts.length > 2) {
			throw new IllegalArgumentException("Expected a delay such as 20ms±10ms, not '" + text + "'");
		}
		Duration fixed = DurationStyle.detectAndParse(parts[0].trim());
		return new NetworkDelay(fixed, (parts.length == 2) ? DurationStyle.detectAndParse(parts[1].trim()) : Duration.ZERO);
	}

	/** The delay of the {@code bench.latency} system property, or {@code otherwise} where it is unset or blank. */
	public static NetworkDelay fromProperty(String otherwise) {
		String text = System.getProperty("bench.latency", "");
		return parse(text.isBlank() ? otherwise : text);
	}

	/** Sets this delay on both directions of {@code proxy}. */
	public void applyTo(FaultyProxy proxy) {
		proxy.delay(this.fixed, this.jitter);
	}

	/** The delay for the report: {@code 20 ms ± 10 ms}, {@code 0.25 ms ± 0.05 ms}, or {@code none}. */
	@Override
	public String toString() {
		if (this.equals(NONE)) {
			return "none";
		}
		return this.jitter.isZero() ? millis(this.fixed) : millis(this.fixed) + " ± " + millis(this.jitter);
	}

	private static String millis(Duration duration) {
		BigDecimal millis = BigDecimal.valueOf(duration.toNanos(), 6).stripTrailingZeros();
		return millis.toPlainString() + " ms";
	}

}
