package dev.locksmith.benchmarks.scenario;

import java.util.concurrent.ThreadLocalRandom;

import io.lettuce.core.api.sync.RedisCommands;

import dev.locksmith.benchmarks.lock.BenchEnvironment;
import dev.locksmith.benchmarks.lock.BenchLock;
import dev.locksmith.benchmarks.lock.Library;

/**
 * The main class of one worker JVM of the one-key scenario, run by {@link WorkerRounds}: its threads
 * increment a counter in Redis under the lock of one key.
 */
public final class ContentionWorker implements WorkerRounds.Work {

	static final String WORKLOAD = "contended";

	static final String KEY = "bench:contended";

	static final String COUNTER = "bench:counter";

	private final BenchLock lock;

	private final RedisCommands<String, String> redis;

	private ContentionWorker(Library library, BenchEnvironment environment, RedisCommands<String, String> redis) {
		this.lock = library.open(environment);
		this.redis = redis;
	}

	public static void main(String[] args) {
		WorkerRounds.serve(args, ContentionWorker::new);
	}

	@Override
	public void warmUp(String key, ThreadLocalRandom random) throws Exception {
		this.lock.runLocked(key, () -> {
		});
	}

	/** The section of its one workload, {@link #WORKLOAD}. */
	@Override
	public WorkerRounds.Section section(String workload) {
		return (random) -> {
			long start = System.nanoTime();
			long[] acquiredAt = new long[1];
			this.lock.runLocked(KEY, () -> {
				acquiredAt[0] = System.nanoTime();
				increment();
			});
			return new WorkerRounds.Wait(acquiredAt[0] - start, true);
		};
	}

	/** The critical section: a read-modify-write in two separate commands, which only mutual exclusion keeps exact. */
	private void increment() {
		long value = Long.parseLong(this.redis.get(COUNTER));
		this.redis.set(COUNTER, Long.toString(value + 1));
	}

	@Override
	public void close() {
		this.lock.close();
	}

}
