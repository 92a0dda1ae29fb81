package dev.locksmith.benchmarks.scenario;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

import io.lettuce.core.api.sync.RedisCommands;

import dev.locksmith.benchmarks.lock.BenchEnvironment;
import dev.locksmith.benchmarks.lock.Library;
import dev.locksmith.benchmarks.lock.SharedLock;

/**
 * The main class of one worker JVM of the shared-lock scenario, run by {@link WorkerRounds}: its
 * threads take read and write locks of one key, or permits of another, and each section counts in
 * Redis who holds with it ({@link Holders}).
 */
public final class SharedLockWorker implements WorkerRounds.Work {

	/** How long each section holds its lock, read, write or permit. */
	private static final Duration SECTION = Duration.ofMillis(5);

	private final SharedLock lock;

	private final RedisCommands<String, String> redis;

	private SharedLockWorker(Library library, BenchEnvironment environment, RedisCommands<String, String> redis) {
		this.lock = library.openShared(environment);
		this.redis = redis;
	}

	public static void main(String[] args) {
		WorkerRounds.serve(args, SharedLockWorker::new);
	}

	@Override
	public void warmUp(String key, ThreadLocalRandom random) throws Exception {
		Runnable nothing = () -> {
		};
		switch (random.nextInt(3)) {
			case 0 -> this.lock.read(key, nothing);
			case 1 -> this.lock.write(key, nothing);
			default -> this.lock.permit(key + ":permits", ReadMostlyAndPermits.PERMITS, nothing);
		}
	}

	@Override
	public WorkerRounds.Section section(String workload) {
		return switch (Workload.valueOf(workload)) {
			case READ_MOSTLY -> (random) -> (random.nextInt(10) == 0)
					? new WorkerRounds.Wait(this.lock.write(Workload.READ_MOSTLY.key, () -> hold(Holders.WRITERS)), true)
					: new WorkerRounds.Wait(this.lock.read(Workload.READ_MOSTLY.key, () -> hold(Holders.READERS)), false);
			case PERMITS -> (random) -> new WorkerRounds.Wait(this.lock.permit(Workload.PERMITS.key,
					ReadMostlyAndPermits.PERMITS, () -> hold(Holders.PERMIT_HOLDERS)), false);
		};
	}

	/** The section: counts itself in, holds the lock {@link #SECTION}, counts itself out. */
	private void hold(Holders holders) {
		holders.enter(this.redis);
		try {
			Thread.sleep(SECTION.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		finally {
			holders.leave(this.redis);
		}
	}

	@Override
	public void close() {
		this.lock.close();
	}

	/** The two workloads, each on one key. */
	enum Workload {

		/** Read and write locks of one key, one section in ten a writer. */
		READ_MOSTLY("bench:read-mostly"),

		/** Permits of one key. */
		PERMITS("bench:permits");

		private final String key;

		Workload(String key) {
			this.key = key;
		}

	}

}
