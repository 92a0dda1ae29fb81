package dev.locksmith.benchmarks.scenario;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.sync.RedisCommands;

import dev.locksmith.benchmarks.lock.BenchEnvironment;
import dev.locksmith.benchmarks.lock.Library;
import dev.locksmith.benchmarks.lock.SharedLock;

/**
 * The main class of one worker JVM of the shared-lock scenario, run by {@link WorkerRounds}: its
 * threads take read and write locks of one key, or permits of another, and each section counts in
 * Redis how many hold with it. Entering, a section adds itself to the holders of its kind, raises the
 * most seen at once, and counts an overlap when it finds more holders of its kind than the lock
 * admits or any holder that it excludes; leaving, it takes itself off. An overlap means the lock
 * failed.
 */
public final class SharedLockWorker implements WorkerRounds.Work {

	/** Sections with overlaps seen. */
	static final String OVERLAPS = "bench:shared:overlaps";

	/** How long each section holds its lock, read, write or permit. */
	private static final Duration SECTION = Duration.ofMillis(5);

	private static final String NO_ONE = "bench:shared:no-one";

	private static final String ENTER = """
			local holders = redis.call('INCR', KEYS[1])
			if holders > tonumber(redis.call('GET', KEYS[2]) or '0') then
				redis.call('SET', KEYS[2], holders)
			end
			if holders > tonumber(ARGV[1]) or tonumber(redis.call('GET', KEYS[3]) or '0') > 0 then
				redis.call('INCR', KEYS[4])
			end
			return holders
			""";

	private final SharedLock lock;

	private final RedisCommands<String, String> redis;

	private SharedLockWorker(Library library, BenchEnvironment environment, RedisCommands<String, String> redis) {
		this.lock = library.openShared(environment);
		this.redis = redis;
	}

	public static void main(String[] args) {
		WorkerRounds.main(args, SharedLockWorker::new);
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
		this.redis.eval(ENTER, ScriptOutputType.INTEGER, new String[] { holders.key, holders.mostKey,
				holders.excluded, OVERLAPS }, Integer.toString(holders.limit));
		try {
			Thread.sleep(SECTION.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		finally {
			this.redis.decr(holders.key);
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

	/** Who holds a lock at the moment, in Redis: readers, writers or permit holders. */
	enum Holders {

		READERS("bench:shared:readers", "bench:shared:writers", Integer.MAX_VALUE),

		WRITERS("bench:shared:writers", "bench:shared:readers", 1),

		PERMIT_HOLDERS("bench:shared:permit-holders", NO_ONE, ReadMostlyAndPermits.PERMITS);

		private final String key;

		/** The most seen at once. */
		final String mostKey;

		private final String excluded;

		private final int limit;

		Holders(String key, String excluded, int limit) {
			this.key = key;
			this.mostKey = key + ":most";
			this.excluded = excluded;
			this.limit = limit;
		}

	}

}
