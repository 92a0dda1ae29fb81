package dev.locksmith.redis;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.connection.ReactiveRedisConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Measures every Redlock server's clock against this process's wall clock, and warns, once each time
 * it happens, when two servers' clocks are surely further apart than Redlock's drift allowance for
 * the shortest lease; see "Fencing tokens across servers" in docs/guide/redlock.md for why that matters.
 */
final class ServerClocks {

	private static final Log logger = LogFactory.getLog(ServerClocks.class);

	private final List<Server> servers;

	private final Clock wallClock;

	private final LongSupplier nanoClock;

	private final AtomicBoolean apart = new AtomicBoolean();

	ServerClocks(List<LettuceConnectionFactory> servers, Clock wallClock, LongSupplier nanoClock) {
		this.servers = servers.stream().map((server) -> new Server(RedlockNode.nameOf(server), server)).toList();
		this.wallClock = wallClock;
		this.nanoClock = nanoClock;
	}

	/**
	 * Health details: {@code clockOffsets}, each server's offset by name, and {@code clockWarning} when
	 * two servers' clocks are surely more than {@link #threshold(Duration)} apart. Waits at most
	 * {@code timeout} for each server.
	 */
	Map<String, Object> details(Duration shortestTtl, Duration timeout) {
		List<NodeAnswer<ClockOffset>> answers = NodeAnswer.askAll(this.servers, this::measure, timeout).join();
		Map<String, String> offsets = new LinkedHashMap<>();
		List<ClockOffset> measured = new ArrayList<>();
		for (NodeAnswer<ClockOffset> answer : answers) {
			if (answer.answered()) {
				ClockOffset offset = Objects.requireNonNull(answer.value());
				measured.add(offset);
				offsets.put(answer.node(), offset.formatted());
			}
			else {
				offsets.put(answer.node(), "unknown (" + answer.problem() + ")");
			}
		}
		Map<String, Object> details = new LinkedHashMap<>();
		details.put("clockOffsets", offsets);
		String warning = warning(measured, shortestTtl);
		if (warning != null) {
			details.put("clockWarning", warning);
		}
		return details;
	}

	/**
	 * How far apart two servers' clocks may be: the drift Redlock's validity allows for a lease of the
	 * shortest ttl, 1% of it plus 2ms.
	 */
	static Duration threshold(Duration shortestTtl) {
		return LeaseValidity.drift(shortestTtl);
	}

	/** The warning for the two servers whose clocks are surely furthest apart, when past the threshold; logged on crossing. */
	@Nullable String warning(List<ClockOffset> measured, Duration shortestTtl) {
		ClockOffset ahead = null;
		ClockOffset behind = null;
		long furthestMicros = 0;
		for (ClockOffset one : measured) {
			for (ClockOffset other : measured) {
				long apartMicros = one.surelyApartFromMicros(other);
				if (one.offsetMicros() > other.offsetMicros() && apartMicros > furthestMicros) {
					ahead = one;
					behind = other;
					furthestMicros = apartMicros;
				}
			}
		}
		Duration threshold = threshold(shortestTtl);
		if (ahead == null || behind == null || furthestMicros <= threshold.toNanos() / 1000) {
			if (this.apart.compareAndSet(true, false)) {
				logger.info("The Redlock servers' clocks agree again within " + threshold.toMillis() + "ms");
			}
			return null;
		}
		String warning = "The clocks of " + ahead.node() + " and " + behind.node() + " are at least "
				+ ClockOffset.millis(furthestMicros, false) + " apart, more than the " + threshold.toMillis()
				+ "ms (1% of the shortest ttl, " + shortestTtl.toMillis() + "ms, plus 2ms) that Redlock allows:"
				+ " synchronise them, or fencing tokens may go backwards after a server restarts empty";
		if (this.apart.compareAndSet(false, true)) {
			logger.warn(warning);
		}
		return warning;
	}

	private CompletableFuture<ClockOffset> measure(Server server) {
		ReactiveRedisConnection connection = server.connectionFactory().getReactiveConnection();
		long sentWallMicros = micros(this.wallClock.instant());
		long sentNanos = this.nanoClock.getAsLong();
		return connection.serverCommands()
			.time(TimeUnit.MICROSECONDS)
			.toFuture()
			.thenApply((serverMicros) -> ClockOffset.measured(server.name(), sentWallMicros,
					this.nanoClock.getAsLong() - sentNanos, serverMicros))
			.whenComplete((offset, failure) -> connection.close());
	}

	private static long micros(Instant instant) {
		return instant.getEpochSecond() * 1_000_000 + instant.getNano() / 1_000;
	}

	/** One server with its name. */
	private record Server(String name, LettuceConnectionFactory connectionFactory) {

		@Override
		public String toString() {
			return this.name;
		}

	}

}
