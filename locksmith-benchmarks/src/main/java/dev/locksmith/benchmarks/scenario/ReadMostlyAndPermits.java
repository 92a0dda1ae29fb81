package dev.locksmith.benchmarks.scenario;

import java.util.Optional;

import dev.locksmith.benchmarks.BenchSettings;
import dev.locksmith.benchmarks.lock.BenchLock;
import dev.locksmith.benchmarks.lock.Library;
import dev.locksmith.testing.RedisServer;

/**
 * Shared locks across worker JVMs, Locksmith against Redisson: 8 threads on one key, 90 % of the
 * sections readers (Redisson's {@code RReadWriteLock}), then 16 threads sharing 4 permits (Redisson's
 * {@code RPermitExpirableSemaphore}), spread over 3 JVMs, each section holding its lock 5 ms. The
 * JVMs are started once per library and run both rounds; the sections count holders and overlaps in
 * Redis ({@link Holders}).
 */
public final class ReadMostlyAndPermits implements Scenario<ReadMostlyAndPermits.Figures> {

	/** Worker JVMs that the threads of each round are spread over. */
	public static final int JVMS = 3;

	/** Threads on the read/write lock, over all worker JVMs. */
	public static final int READ_WRITE_THREADS = 8;

	/** Threads on the permits, over all worker JVMs. */
	public static final int PERMIT_THREADS = 16;

	/** Permits of the permits key. */
	public static final int PERMITS = 4;

	private final BenchSettings settings;

	private final RedisServer redis;

	public ReadMostlyAndPermits(BenchSettings settings, RedisServer redis) {
		this.settings = settings;
		this.redis = redis;
	}

	@Override
	public String title() {
		return "Read/write lock and permits across %d JVMs".formatted(JVMS);
	}

	/** Measures {@code library} in worker JVMs of its own; the clients of this JVM take no part. */
	@Override
	public Optional<Figures> measure(Library library, BenchLock lock) throws Exception {
		if (!library.hasSharedLocks()) {
			return Optional.empty();
		}
		try (WorkerGroup workers = WorkerGroup.start(JVMS, SharedLockWorker.class, library, this.redis.port(),
				this.settings.threadsPerJvm(), this.settings)) {
			SharedFigures readMostly = round(workers, SharedLockWorker.Workload.READ_MOSTLY, READ_WRITE_THREADS,
					Holders.READERS);
			SharedFigures permits = round(workers, SharedLockWorker.Workload.PERMITS, PERMIT_THREADS,
					Holders.PERMIT_HOLDERS);
			return Optional.of(new Figures(readMostly, permits));
		}
	}

	private SharedFigures round(WorkerGroup workers, SharedLockWorker.Workload workload, int threads,
			Holders counted) throws Exception {
		this.redis.command("SET", Holders.OVERLAPS, "0");
		WorkerGroup.Round round = workers.round(JVMS,
				(worker) -> WorkerRounds.go(workload.name(), threadsOf(worker, threads)));
		return new SharedFigures(round.sectionsPerSecond(), round.maxWaitMillis((tally) -> true),
				round.maxWaitMillis(ThreadTally::writer), count(counted.mostKey), count(Holders.OVERLAPS));
	}

	/** The threads of worker {@code worker} when {@code threads} are spread as evenly as they go. */
	static int threadsOf(int worker, int threads) {
		return threads / JVMS + ((worker < threads % JVMS) ? 1 : 0);
	}

	private long count(String key) {
		String value = this.redis.command("GET", key);
		return value.isEmpty() ? 0 : Long.parseLong(value);
	}

	/**
	 * Figures of both rounds.
	 *
	 * @param readMostly the read/write lock, 8 threads, 90 % reads; most holders are readers
	 * @param permits the 4 permits, 16 threads
	 */
	public record Figures(SharedFigures readMostly, SharedFigures permits) {
	}

}
