package dev.locksmith.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

/**
 * A wall clock for a {@code redis-server} process that a test can step and run fast or slow, through
 * libfaketime (Debian packages {@code faketime} and {@code libfaketime}) preloaded into the process.
 * <p>
 * The offset from the real clock is kept in a file that libfaketime reads on every call
 * ({@code FAKETIME_TIMESTAMP_FILE} with {@code FAKETIME_NO_CACHE=1}), so a running server's clock
 * jumps as soon as the file changes. Only the wall clock is faked ({@code gettimeofday},
 * {@code clock_gettime(CLOCK_REALTIME)}, {@code time}): Redis takes {@code TIME} and key expiry from
 * it. {@code CLOCK_MONOTONIC} is left alone ({@code FAKETIME_DONT_FAKE_MONOTONIC=1}), as an NTP step
 * leaves it alone; by default libfaketime would move the monotonic clock too, which makes Redis's
 * timers (serverCron, active expiry) stall for as long as a step back.
 * <p>
 * A clock that runs at another rate is emulated by moving the offset in small steps
 * ({@link #drift(double)}), because libfaketime's own rate ({@code x1.5}) changed at run time jumps
 * the clock, or with {@code FAKETIME_XRESET} ignores later offsets.
 */
public final class FakeClock implements AutoCloseable {

	/** Where Debian and a source build put the library; {@code LOCKSMITH_LIBFAKETIME} overrides. */
	private static final List<String> LIBRARIES = List.of("/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1",
			"/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1", "/usr/lib/faketime/libfaketime.so.1",
			"/usr/local/lib/faketime/libfaketime.so.1");

	private static final long DRIFT_TICK_MILLIS = 10;

	private final Path library;

	private final Path file;

	private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor((task) -> {
		Thread thread = new Thread(task, "fake-clock-drift");
		thread.setDaemon(true);
		return thread;
	});

	private long offsetMicros;

	private @Nullable ScheduledFuture<?> drift;

	private FakeClock(Path library, Path file) {
		this.library = library;
		this.file = file;
	}

	/** The libfaketime library, when it is installed. */
	public static Optional<Path> library() {
		String chosen = System.getenv("LOCKSMITH_LIBFAKETIME");
		if (chosen != null && !chosen.isBlank()) {
			return Optional.of(Path.of(chosen)).filter(Files::isReadable);
		}
		return LIBRARIES.stream().map(Path::of).filter(Files::isReadable).findFirst();
	}

	/** A clock at the real time, for a server to be started with {@link RedisServer#start(FakeClock)}. */
	public static FakeClock create() {
		Path library = library().orElseThrow(() -> new IllegalStateException(
				"libfaketime is not installed (apt-get install faketime libfaketime, or set LOCKSMITH_LIBFAKETIME)"));
		try {
			FakeClock clock = new FakeClock(library, Files.createTempFile("locksmith-faketime-", ".rc"));
			clock.write();
			return clock;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** The environment that makes a process use this clock. */
	Map<String, String> environment() {
		return Map.of("LD_PRELOAD", this.library.toString(), "FAKETIME_TIMESTAMP_FILE", this.file.toString(),
				"FAKETIME_NO_CACHE", "1", "FAKETIME_DONT_FAKE_MONOTONIC", "1");
	}

	/** Steps the clock: forward for a positive {@code by}, back for a negative one. */
	public synchronized void step(Duration by) {
		this.offsetMicros += by.toNanos() / 1000;
		write();
	}

	/** How far the clock is from the real one now. */
	public synchronized Duration offset() {
		return Duration.ofNanos(this.offsetMicros * 1000);
	}

	/**
	 * Runs the clock at {@code rate} times real time (1.5: 50% fast) until {@link #stopDrift()}, moving
	 * it every 10 ms. A rate below 1 moves it back by up to 10 ms (times 1 − rate) at a time.
	 */
	public synchronized void drift(double rate) {
		stopDrift();
		long[] last = { System.nanoTime() };
		this.drift = this.ticker.scheduleAtFixedRate(() -> {
			long now = System.nanoTime();
			long elapsed = now - last[0];
			last[0] = now;
			synchronized (this) {
				this.offsetMicros += Math.round(elapsed * (rate - 1) / 1000);
				write();
			}
		}, DRIFT_TICK_MILLIS, DRIFT_TICK_MILLIS, TimeUnit.MILLISECONDS);
	}

	/** Runs the clock at the real rate again, keeping the offset it gained or lost. */
	public synchronized void stopDrift() {
		if (this.drift != null) {
			this.drift.cancel(false);
			this.drift = null;
		}
	}

	@Override
	public void close() {
		this.ticker.shutdownNow();
		try {
			Files.deleteIfExists(this.file);
		}
		catch (IOException ex) {
			// a temporary file
		}
	}

	/** Replaces the file in one rename, so the server never reads it half written. */
	private void write() {
		try {
			Path next = this.file.resolveSibling(this.file.getFileName() + ".next");
			Files.writeString(next, String.format(Locale.ROOT, "%+.6f%n", this.offsetMicros / 1e6));
			Files.move(next, this.file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
