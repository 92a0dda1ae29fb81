package dev.locksmith.redis;

import java.nio.file.Files;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import dev.locksmith.testing.FakeClock;
import dev.locksmith.testing.RedisServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

/**
 * Each server's clock offset, {@code TIME} against the local wall clock less half the round trip, and
 * the warning when two servers' clocks are further apart than Redlock's drift allowance.
 */
@ExtendWith(OutputCaptureExtension.class)
class RedlockClockTests extends RedlockTestSupport {

	private static final Duration TTL = Duration.ofSeconds(30);

	private static final Duration TIMEOUT = Duration.ofSeconds(1);

	@Test
	void theOffsetIsTheServerTimeLessTheLocalTimeAtTheMiddleOfTheRoundTrip() {
		ClockOffset offset = ClockOffset.measured("a", 1_000_000, Duration.ofMillis(4).toNanos(), 1_014_000);

		assertThat(offset.offsetMicros()).isEqualTo(12_000);
		assertThat(offset.uncertaintyMicros()).isEqualTo(2_000);
		assertThat(offset.formatted()).isEqualTo("+12ms");
		assertThat(ClockOffset.measured("b", 1_000_000, Duration.ofMillis(4).toNanos(), 1_000_000).formatted())
			.isEqualTo("-2ms");
	}

	@Test
	void twoClocksAreSurelyApartByTheirDifferenceLessBothUncertainties() {
		ClockOffset ahead = new ClockOffset("a", 500_000, 1_000);
		ClockOffset behind = new ClockOffset("b", -100_000, 3_000);

		assertThat(ahead.surelyApartFromMicros(behind)).isEqualTo(596_000);
		assertThat(behind.surelyApartFromMicros(ahead)).isEqualTo(596_000);
		assertThat(new ClockOffset("c", 1_000, 1_000).surelyApartFromMicros(new ClockOffset("d", 0, 1_000)))
			.isZero();
	}

	@Test
	void theThresholdIsTheDriftRedlockAllowsForTheShortestTtl() {
		assertThat(ServerClocks.threshold(TTL)).isEqualTo(Duration.ofMillis(302));
		assertThat(ServerClocks.threshold(Duration.ofSeconds(1))).isEqualTo(Duration.ofMillis(12));
	}

	@Test
	void theWarningIsLoggedOnceEachTimeTheClocksDriftApart(CapturedOutput output) {
		ServerClocks clocks = new ServerClocks(List.of(), Clock.systemUTC(), System::nanoTime);
		ClockOffset onTime = new ClockOffset("a", 0, 500);
		List<ClockOffset> apart = List.of(onTime, new ClockOffset("b", 303_001, 500));
		List<ClockOffset> agreeing = List.of(onTime, new ClockOffset("b", 303_000, 500));

		assertThat(clocks.warning(apart, TTL)).startsWith("The clocks of b and a are at least 302ms apart");
		assertThat(clocks.warning(apart, TTL)).isNotNull();
		assertThat(clocks.warning(agreeing, TTL)).as("within the threshold once the round trips are allowed for")
			.isNull();
		assertThat(clocks.warning(apart, TTL)).isNotNull();

		assertThat(output.getOut().split("are at least", -1)).as("warned at each of the two crossings").hasSize(3);
		assertThat(output).contains("The Redlock servers' clocks agree again within 302ms");
	}

	@Test
	void aLocalClockAheadShowsEveryServerBehindButNoWarningWhileTheServersAgree() {
		Clock ahead = Clock.offset(Clock.systemUTC(), Duration.ofSeconds(5));
		ServerClocks clocks = new ServerClocks(this.redlock.connect(servers.first(3)).connectionFactories(), ahead,
				System::nanoTime);

		Map<String, Object> details = clocks.details(TTL, TIMEOUT);

		assertThat(offsetsMillis(details)).hasSize(3)
			.allSatisfy((node, millis) -> assertThat(millis).isBetween(-5_100L, -4_900L));
		assertThat(details).doesNotContainKey("clockWarning");
	}

	@Test
	void aServerWhoseClockRunsAheadShowsItsOffsetAndTheWarningLoggedOnce(CapturedOutput output) {
		assumeThat(FakeClock.library()).as("libfaketime").isPresent();
		try (FakeClock clock = FakeClock.create(); RedisServer skewed = RedisServer.start(clock)) {
			clock.step(Duration.ofSeconds(2));
			List<RedisServer> nodes = new ArrayList<>(servers.first(2));
			nodes.add(skewed);
			RedlockServers connections = this.redlock.connect(nodes);
			String skewedName = "127.0.0.1:" + skewed.port();

			Map<String, Object> details = connections.clockDetails(TTL, TIMEOUT);
			connections.clockDetails(TTL, TIMEOUT);

			assertThat(offsetsMillis(details).get(skewedName)).isBetween(1_900L, 2_100L);
			assertThat(offsetsMillis(details)).hasSize(3)
				.allSatisfy((node, millis) -> assertThat(node.equals(skewedName) || Math.abs(millis) < 100).isTrue());
			assertThat(details.get("clockWarning").toString()).startsWith("The clocks of " + skewedName + " and ")
				.contains("more than the 302ms");
			assertThat(output.getOut().split("are at least", -1)).as("warned once").hasSize(2);
			assertThat(output).contains("WARN");
		}
	}

	@SuppressWarnings("unchecked")
	static Map<String, Long> offsetsMillis(Map<String, Object> details) {
		Map<String, String> offsets = (Map<String, String>) details.get("clockOffsets");
		Map<String, Long> millis = new LinkedHashMap<>();
		offsets.forEach((node, offset) -> millis.put(node, Long.parseLong(offset.replace("ms", "").replace("+", ""))));
		return millis;
	}

}
