package dev.locksmith.redis;

import java.time.Duration;
import java.util.concurrent.Callable;

import dev.locksmith.core.LockUnavailableException;
import dev.locksmith.testing.RedisServer;

import static org.awaitility.Awaitility.await;

/**
 * A Redis server down long enough for Lettuce's reconnect delay to grow to many seconds, and the time
 * locking then takes to resume. The default outage is long enough that Lettuce alone would take longer
 * than {@link #PROMPT}: its delay doubles from 1ms after each failed attempt, so the attempt due 16.4 s
 * into the outage fails and the next is due 32.8 s in, 13.8 s after the restart. Set another with
 * {@code -Dlocksmith.outage=PT40S}.
 */
final class LongOutage {

	static final Duration OUTAGE = Duration.parse(System.getProperty("locksmith.outage", "PT19S"));

	/** A generous bound on the recovery, which takes well under a second on an idle machine. */
	static final Duration PROMPT = Duration.ofSeconds(8);

	private LongOutage() {
	}

	/** Stops {@code server} for {@link #OUTAGE}, then starts it again, empty, on the same port, and answering. */
	static void of(RedisServer server) throws InterruptedException {
		server.stop();
		Thread.sleep(OUTAGE.toMillis());   // the outage itself, not a wait for some condition
		server.restart();
	}

	/** The time until {@code lock} first returns {@code true}, failing closed until then. */
	static Duration until(Callable<Boolean> lock) {
		long started = System.nanoTime();
		await().atMost(Duration.ofSeconds(60))
			.pollInterval(Duration.ofMillis(50))
			.ignoreException(LockUnavailableException.class)
			.until(lock);
		return Duration.ofNanos(System.nanoTime() - started);
	}

}
