package dev.locksmith.benchmarks.scenario;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;

import dev.locksmith.benchmarks.lock.BenchEnvironment;
import dev.locksmith.benchmarks.lock.BenchLock;
import dev.locksmith.benchmarks.lock.Library;

/**
 * The main class of one worker JVM of the cross-process scenario. It warms up, says it is ready, and
 * then runs one round for each {@code go} read from standard input until the input ends: its threads
 * increment a counter in Redis under the lock of one key until a {@code stop}, and count what they do
 * from a {@code mark} on, so that the figures are those of a warm, contended steady state; it reports
 * each round on standard output.
 * <p>
 * Arguments: library, Redis port, threads, warm-up in milliseconds.
 */
public final class ContentionWorker {

	static final String KEY = "bench:contended";

	static final String COUNTER = "bench:counter";

	static final String READY = "bench:ready";

	static final String DONE = "bench:done";

	static final String FAILED = "bench:failed ";

	static final String GO = "go";

	static final String MARK = "mark";

	static final String STOP = "stop";

	private final BenchLock lock;

	private final RedisCommands<String, String> redis;

	private final AtomicReference<Throwable> failure = new AtomicReference<>();

	private volatile boolean measuring;

	private volatile boolean stopped;

	private ContentionWorker(BenchLock lock, RedisCommands<String, String> redis) {
		this.lock = lock;
		this.redis = redis;
	}

	public static void main(String[] args) throws Exception {
		Library library = Library.valueOf(args[0]);
		int port = Integer.parseInt(args[1]);
		int threads = Integer.parseInt(args[2]);
		Duration warmup = Duration.ofMillis(Long.parseLong(args[3]));
		RedisClient client = RedisClient.create("redis://127.0.0.1:" + port);
		try (BenchEnvironment environment = new BenchEnvironment(port);
				BenchLock lock = library.open(environment);
				StatefulRedisConnection<String, String> connection = client.connect()) {
			new ContentionWorker(lock, connection.sync()).run(threads, warmup);
		}
		catch (Throwable ex) {
			System.out.println(FAILED + ex);
			ex.printStackTrace();
			System.exit(1);
		}
		finally {
			client.shutdown();
		}
		System.exit(0);
	}

	private void run(int threads, Duration warmup) throws Exception {
		warmUp(threads, warmup);
		BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
		System.out.println(READY);
		String command;
		while ((command = commands.readLine()) != null) {
			if (command.equals(GO)) {
				round(threads, commands);
			}
		}
	}

	/** Contends from a {@code go} to a {@code stop}, then reports what each thread did. */
	private void round(int threads, BufferedReader commands) throws Exception {
		this.measuring = false;
		this.stopped = false;
		List<ThreadTally> tallies = new ArrayList<>();
		List<Thread> workers = new ArrayList<>();
		for (int i = 0; i < threads; i++) {
			workers.add(started(() -> contend(tallies)));
		}
		awaitCommand(commands, MARK);
		this.measuring = true;
		awaitCommand(commands, STOP);
		this.stopped = true;
		for (Thread worker : workers) {
			worker.join();
		}
		if (this.failure.get() != null) {
			throw new IllegalStateException("a worker thread failed", this.failure.get());
		}
		tallies.forEach((tally) -> System.out.println(tally.toLine()));
		System.out.println(DONE);
	}

	private void warmUp(int threads, Duration warmup) throws InterruptedException {
		long end = System.nanoTime() + warmup.toNanos();
		List<Thread> warmers = new ArrayList<>();
		for (int i = 0; i < threads; i++) {
			String key = "bench:warmup:" + ProcessHandle.current().pid() + ":" + i;
			warmers.add(started(() -> {
				while (System.nanoTime() < end && this.failure.get() == null) {
					runGuarded(() -> this.lock.runLocked(key, () -> {
					}));
				}
			}));
		}
		for (Thread warmer : warmers) {
			warmer.join();
		}
	}

	private void contend(List<ThreadTally> tallies) {
		long allSections = 0;
		long sections = 0;
		long maxWait = 0;
		long[] acquiredAt = new long[1];
		while (!this.stopped && this.failure.get() == null) {
			boolean measured = this.measuring;
			long start = System.nanoTime();
			if (!runGuarded(() -> this.lock.runLocked(KEY, () -> {
				acquiredAt[0] = System.nanoTime();
				increment();
			}))) {
				return;
			}
			allSections++;
			if (measured) {
				sections++;
				maxWait = Math.max(maxWait, acquiredAt[0] - start);
			}
		}
		synchronized (tallies) {
			tallies.add(new ThreadTally(allSections, sections, maxWait));
		}
	}

	/** The critical section: a read-modify-write in two separate commands, which only mutual exclusion keeps exact. */
	private void increment() {
		long value = Long.parseLong(this.redis.get(COUNTER));
		this.redis.set(COUNTER, Long.toString(value + 1));
	}

	private boolean runGuarded(LockedCall call) {
		try {
			call.run();
			return true;
		}
		catch (Throwable ex) {
			this.failure.compareAndSet(null, ex);
			return false;
		}
	}

	private static Thread started(Runnable work) {
		Thread thread = new Thread(work);
		thread.start();
		return thread;
	}

	private static void awaitCommand(BufferedReader commands, String expected) throws IOException {
		String line;
		while ((line = commands.readLine()) != null) {
			if (line.equals(expected)) {
				return;
			}
		}
		throw new IllegalStateException("standard input closed before '" + expected + "'");
	}

	/** A call that may throw anything. */
	private interface LockedCall {

		void run() throws Exception;

	}

}
