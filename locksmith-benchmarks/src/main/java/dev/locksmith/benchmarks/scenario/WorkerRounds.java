package dev.locksmith.benchmarks.scenario;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicReference;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;

import dev.locksmith.benchmarks.lock.BenchEnvironment;
import dev.locksmith.benchmarks.lock.Library;

/**
 * The life of a worker JVM of the cross-process scenarios. It warms up on a key of its own, says it
 * is ready, and then runs one round for each {@code go <workload> <threads>} read from standard input
 * until the input ends: its threads run the workload's sections until a {@code stop}, and count what
 * they do from a {@code mark} on, so that the figures are those of a warm, contended steady state; it
 * reports each round on standard output, one {@link ThreadTally} per thread and kind of section. Before
 * the mark it answers each {@code jit} with the time its JIT compilers have taken so far, so that the
 * driver marks once they are done with the round's code.
 * <p>
 * Arguments: library, Redis port, warm-up threads, warm-up in milliseconds.
 */
final class WorkerRounds {

	static final String READY = "bench:ready";

	static final String DONE = "bench:done";

	static final String FAILED = "bench:failed ";

	static final String GO = "go";

	static final String MARK = "mark";

	static final String STOP = "stop";

	static final String JIT = "jit";

	static final String JIT_ANSWER = "bench:jit ";

	private final Work work;

	private final AtomicReference<Throwable> failure = new AtomicReference<>();

	private volatile boolean measuring;

	private volatile boolean stopped;

	private WorkerRounds(Work work) {
		this.work = work;
	}

	/** The arguments of a worker JVM that runs {@code library}, to follow its main class. */
	static List<String> arguments(Library library, int redisPort, int warmupThreads, Duration warmup) {
		return List.of(library.name(), Integer.toString(redisPort), Integer.toString(warmupThreads),
				Long.toString(warmup.toMillis()));
	}

	/** The command that starts a round of {@code workload} on {@code threads} threads. */
	static String go(String workload, int threads) {
		return GO + " " + workload + " " + threads;
	}

	/** Runs a worker JVM, from the arguments of its main method, with the work that {@code opener} opens; then exits the JVM. */
	static void serve(String[] args, WorkOpener opener) {
		Library library = Library.valueOf(args[0]);
		int port = Integer.parseInt(args[1]);
		int warmupThreads = Integer.parseInt(args[2]);
		Duration warmup = Duration.ofMillis(Long.parseLong(args[3]));
		RedisClient client = RedisClient.create("redis://127.0.0.1:" + port);
		try (BenchEnvironment environment = new BenchEnvironment(port);
				StatefulRedisConnection<String, String> connection = client.connect();
				Work work = opener.open(library, environment, connection.sync())) {
			new WorkerRounds(work).run(warmupThreads, warmup);
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

	private void run(int warmupThreads, Duration warmup) throws Exception {
		warmUp(warmupThreads, warmup);
		BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
		System.out.println(READY);
		String command;
		while ((command = commands.readLine()) != null) {
			String[] words = command.split(" ");
			if (words[0].equals(GO)) {
				round(this.work.section(words[1]), Integer.parseInt(words[2]), commands);
			}
		}
	}

	/** Runs {@code section} from a {@code go} to a {@code stop}, then reports what each thread did. */
	private void round(Section section, int threads, BufferedReader commands) throws Exception {
		this.measuring = false;
		this.stopped = false;
		List<ThreadTally> tallies = new ArrayList<>();
		List<Thread> workers = new ArrayList<>();
		for (int i = 0; i < threads; i++) {
			workers.add(started(() -> repeat(section, tallies)));
		}
		String command;
		while (!(command = nextCommand(commands, MARK)).equals(MARK)) {
			if (command.equals(JIT)) {
				System.out.println(JIT_ANSWER + compilationMillis());
			}
		}
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
		// one key for the threads of this JVM: they wait for each other, which warms the waiting path too
		String key = "bench:warmup:" + ProcessHandle.current().pid();
		for (int i = 0; i < threads; i++) {
			warmers.add(started(() -> {
				while (System.nanoTime() < end && this.failure.get() == null) {
					runGuarded(() -> {
						this.work.warmUp(key, ThreadLocalRandom.current());
						return null;
					});
				}
			}));
		}
		for (Thread warmer : warmers) {
			warmer.join();
		}
	}

	/**
	 * Runs {@code section} until the stop, counting the sections that end from the mark on; adds one
	 * tally for each kind of section run, or an empty one for none.
	 */
	private void repeat(Section section, List<ThreadTally> tallies) {
		ThreadTally writes = new ThreadTally(true, 0, 0, 0);
		ThreadTally others = new ThreadTally(false, 0, 0, 0);
		ThreadLocalRandom random = ThreadLocalRandom.current();
		while (!this.stopped && this.failure.get() == null) {
			Wait wait = runGuarded(() -> section.run(random));
			if (wait == null) {
				return;
			}
			// a section counts when it ends in the window, so that a wait that began before the mark counts too
			boolean measured = this.measuring;
			if (wait.writer()) {
				writes = writes.plus(measured, wait.nanos());
			}
			else {
				others = others.plus(measured, wait.nanos());
			}
		}
		synchronized (tallies) {
			if (others.allSections() == 0 || writes.allSections() > 0) {
				tallies.add(writes);
			}
			if (others.allSections() > 0) {
				tallies.add(others);
			}
		}
	}

	/** Runs {@code call}, or records its failure for the round and returns null. */
	private <T> T runGuarded(GuardedCall<T> call) {
		try {
			return call.run();
		}
		catch (Throwable ex) {
			this.failure.compareAndSet(null, ex);
			return null;
		}
	}

	private static Thread started(Runnable work) {
		Thread thread = new Thread(work);
		thread.start();
		return thread;
	}

	private static void awaitCommand(BufferedReader commands, String expected) throws IOException {
		while (!nextCommand(commands, expected).equals(expected)) {
			// only the expected command matters here
		}
	}

	private static String nextCommand(BufferedReader commands, String expected) throws IOException {
		String line = commands.readLine();
		if (line == null) {
			throw new IllegalStateException("standard input closed before '" + expected + "'");
		}
		return line;
	}

	/** The time this JVM's JIT compilers have taken since it started, in milliseconds; 0 where the JVM does not say. */
	private static long compilationMillis() {
		CompilationMXBean compiler = ManagementFactory.getCompilationMXBean();
		return (compiler != null && compiler.isCompilationTimeMonitoringSupported()) ? compiler.getTotalCompilationTime() : 0;
	}

	/** What the threads of a worker JVM do with one library. */
	interface Work extends AutoCloseable {

		/** Takes and releases a lock of {@code key}, which only this JVM's warm-up threads use, with nothing in between. */
		void warmUp(String key, ThreadLocalRandom random) throws Exception;

		/** The section that the threads of a round of {@code workload} run over and over. */
		Section section(String workload);

		/** Shuts down what the work opened. */
		@Override
		void close();

	}

	/** Opens the work of a worker JVM for a library, its environment and a plain Redis connection for its sections. */
	@FunctionalInterface
	interface WorkOpener {

		Work open(Library library, BenchEnvironment environment, RedisCommands<String, String> redis);

	}

	/** One critical section under a lock: takes the lock, runs, releases, and says how long it waited. */
	@FunctionalInterface
	interface Section {

		Wait run(ThreadLocalRandom random) throws Exception;

	}

	/**
	 * How long a section waited for its lock.
	 *
	 * @param nanos the wait
	 * @param writer whether the section excluded everyone
	 */
	record Wait(long nanos, boolean writer) {
	}

	/** A call that may throw anything. */
	@FunctionalInterface
	private interface GuardedCall<T> {

		T run() throws Exception;

	}

}
