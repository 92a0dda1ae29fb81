package dev.locksmith.benchmarks.scenario;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs a scenario's tasks on daemon threads and collects their results within a deadline, so that
 * a library that hangs fails its scenario instead of stopping the whole run.
 */
final class Workers {

	private static final Duration GRACE = Duration.ofSeconds(60);

	private Workers() {
	}

	/** Runs one task on a thread of its own, like {@link #runAll}. */
	static <T> T runOne(Callable<T> task, Duration expected) throws Exception {
		return runAll(List.of(task), expected).get(0);
	}

	/** Runs every task on its own thread and returns their results in order, or fails after {@code expected} plus a minute. */
	static <T> List<T> runAll(List<Callable<T>> tasks, Duration expected) throws Exception {
		ExecutorService executor = Executors.newFixedThreadPool(tasks.size(), (task) -> {
			Thread thread = new Thread(task, "bench-worker");
			thread.setDaemon(true);
			return thread;
		});
		try {
			List<Future<T>> futures = tasks.stream().map(executor::submit).toList();
			long deadline = System.nanoTime() + expected.plus(GRACE).toNanos();
			List<T> results = new ArrayList<>();
			for (Future<T> future : futures) {
				results.add(future.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS));
			}
			return results;
		}
		catch (ExecutionException ex) {
			throw (ex.getCause() instanceof Exception cause) ? cause : ex;
		}
		catch (TimeoutException ex) {
			throw new TimeoutException("did not finish within " + expected.plus(GRACE).toSeconds() + "s");
		}
		finally {
			executor.shutdownNow();
		}
	}

}
