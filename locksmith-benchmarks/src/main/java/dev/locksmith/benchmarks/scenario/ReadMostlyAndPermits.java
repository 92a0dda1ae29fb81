package dev.locksmith.benchmarks.scenario;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Lock;

import org.redisson.Redisson;
import org.redisson.api.RPermitExpirableSemaphore;
import org.redisson.api.RReadWriteLock;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.locksmith.annotation.LockMode;
import dev.locksmith.benchmarks.BenchSettings;
import dev.locksmith.benchmarks.lock.BenchLock;
import dev.locksmith.benchmarks.lock.Library;
import dev.locksmith.core.DefaultLockService;
import dev.locksmith.core.LockOptions;
import dev.locksmith.redis.RedisLockStore;
import dev.locksmith.testing.RedisServer;

/**
 * Shared locks in one JVM, Locksmith against Redisson: 8 threads on one key, 90 % of them readers
 * (Redisson's {@code RReadWriteLock}), and 16 threads sharing 4 permits (Redisson's
 * {@code RPermitExpirableSemaphore}), each section holding its lock 5 ms. Reports throughput, the
 * longest wait, the longest wait of a writer among continuous readers, and the most permit holders
 * seen at once. Only Locksmith's {@code LockService} and Redisson take part.
 */
public final class ReadMostlyAndPermits implements Scenario<ReadMostlyAndPermits.Figures> {

	private static final int READ_WRITE_THREADS = 8;

	private static final int PERMIT_THREADS = 16;

	private static final int PERMITS = 4;

	private static final Duration LEASE = Duration.ofSeconds(30);

	/** How long each section holds its lock, read, write or permit. */
	private static final Duration SECTION = Duration.ofMillis(5);

	private final BenchSettings settings;

	private final RedisServer redis;

	public ReadMostlyAndPermits(BenchSettings settings, RedisServer redis) {
		this.settings = settings;
		this.redis = redis;
	}

	@Override
	public String title() {
		return "Read-mostly (8 threads, 90 % reads) and 4 permits (16 threads), 1 JVM";
	}

	@Override
	public Optional<Figures> measure(Library library, BenchLock lock) throws Exception {
		if (library != Library.LOCKSMITH && library != Library.REDISSON) {
			return Optional.empty();
		}
		try (SharedLocks shared = (library == Library.REDISSON) ? new RedissonShared(this.redis.port())
				: new LocksmithShared(this.redis.port())) {
			Tally readMostly = run(READ_WRITE_THREADS, (random) -> (random.nextInt(10) == 0)
					? shared.write("bench:read-mostly", this::hold) : shared.read("bench:read-mostly", this::hold));
			AtomicInteger holders = new AtomicInteger();
			AtomicInteger mostHolders = new AtomicInteger();
			Tally permits = run(PERMIT_THREADS, (random) -> shared.permit("bench:permits", () -> {
				mostHolders.accumulateAndGet(holders.incrementAndGet(), Math::max);
				hold();
				holders.decrementAndGet();
			}));
			return Optional.of(new Figures(readMostly.perSecond(this.settings.measure()), readMostly.maxWaitMillis(),
					readMostly.maxWriterWaitMillis(), permits.perSecond(this.settings.measure()), permits.maxWaitMillis(),
					mostHolders.get()));
		}
	}

	private void hold() {
		try {
			Thread.sleep(SECTION.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/** Runs {@code threads} threads doing {@code operation} over and over; counts and waits after the warm-up. */
	private Tally run(int threads, Operation operation) throws Exception {
		long measureStart = System.nanoTime() + this.settings.warmup().toNanos();
		long end = measureStart + this.settings.measure().toNanos();
		List<Callable<Tally>> tasks = new ArrayList<>();
		for (int i = 0; i < threads; i++) {
			tasks.add(() -> {
				Tally tally = new Tally();
				ThreadLocalRandom random = ThreadLocalRandom.current();
				for (long now = System.nanoTime(); now < end; now = System.nanoTime()) {
					Wait wait = operation.run(random);
					if (now >= measureStart) {
						tally.add(wait);
					}
				}
				return tally;
			});
		}
		Tally total = new Tally();
		Workers.runAll(tasks, this.settings.warmup().plus(this.settings.measure())).forEach(total::addAll);
		return total;
	}

	/**
	 * Figures of both halves.
	 *
	 * @param readMostlyPerSecond read and write sections per second on the read-mostly key
	 * @param readMostlyMaxWaitMillis the longest wait for the read-mostly key
	 * @param writerMaxWaitMillis the longest wait of a writer among the readers
	 * @param permitsPerSecond sections per second under the permits
	 * @param permitMaxWaitMillis the longest wait for a permit
	 * @param mostPermitHolders the most sections seen running at once under the permits
	 */
	public record Figures(double readMostlyPerSecond, double readMostlyMaxWaitMillis, double writerMaxWaitMillis,
			double permitsPerSecond, double permitMaxWaitMillis, int mostPermitHolders) {
	}

	/** One operation of a thread: how long it waited, and whether it wrote. */
	private record Wait(long nanos, boolean writer) {
	}

	@FunctionalInterface
	private interface Operation {

		Wait run(ThreadLocalRandom random) throws Exception;

	}

	/** Operations and waits of one thread, or of all of them. */
	private static final class Tally {

		private long operations;

		private long maxWaitNanos;

		private long maxWriterWaitNanos;

		void add(Wait wait) {
			this.operations++;
			this.maxWaitNanos = Math.max(this.maxWaitNanos, wait.nanos());
			if (wait.writer()) {
				this.maxWriterWaitNanos = Math.max(this.maxWriterWaitNanos, wait.nanos());
			}
		}

		void addAll(Tally other) {
			this.operations += other.operations;
			this.maxWaitNanos = Math.max(this.maxWaitNanos, other.maxWaitNanos);
			this.maxWriterWaitNanos = Math.max(this.maxWriterWaitNanos, other.maxWriterWaitNanos);
		}

		double perSecond(Duration measured) {
			return this.operations / (measured.toNanos() / 1e9);
		}

		double maxWaitMillis() {
			return this.maxWaitNanos / 1e6;
		}

		double maxWriterWaitMillis() {
			return this.maxWriterWaitNanos / 1e6;
		}

	}

	/** A library's read, write and permit sections, each returning how long it waited for its lock. */
	private interface SharedLocks extends AutoCloseable {

		Wait read(String key, Runnable section) throws Exception;

		Wait write(String key, Runnable section) throws Exception;

		Wait permit(String key, Runnable section) throws Exception;

	}

	/** Locksmith's engine, wired on its own connections as the auto-configuration wires it. */
	private static final class LocksmithShared implements SharedLocks {

		private final LettuceConnectionFactory connections;

		private final RedisLockStore store;

		private final DefaultLockService locks;

		LocksmithShared(int port) {
			this.connections = RedisServer.connectionFactory(port);
			this.store = RedisLockStore.builder(this.connections).build();
			this.locks = DefaultLockService.builder(this.store.lockBackend())
				.releaseNotifications(this.store.releaseNotifications())
				.build();
			this.store.start();
		}

		@Override
		public Wait read(String key, Runnable section) throws Exception {
			return run(key, LockOptions.ofTtl(LEASE).withMode(LockMode.READ), section, false);
		}

		@Override
		public Wait write(String key, Runnable section) throws Exception {
			return run(key, LockOptions.ofTtl(LEASE), section, true);
		}

		@Override
		public Wait permit(String key, Runnable section) throws Exception {
			return run(key, LockOptions.ofTtl(LEASE).withPermits(PERMITS), section, false);
		}

		private Wait run(String key, LockOptions options, Runnable section, boolean writer) throws Exception {
			long start = System.nanoTime();
			try (var handle = this.locks.acquire(key, options.withWaitTime(Duration.ofMinutes(1)))) {
				long waited = System.nanoTime() - start;
				section.run();
				return new Wait(waited, writer);
			}
		}

		@Override
		public void close() throws Exception {
			this.locks.close();
			this.store.close();
			this.connections.destroy();
		}

	}

	/** Redisson's read/write lock (renewed by its watchdog) and its expirable semaphore (a fixed lease). */
	private static final class RedissonShared implements SharedLocks {

		private final RedissonClient redisson;

		RedissonShared(int port) {
			Config config = new Config();
			config.useSingleServer().setAddress("redis://127.0.0.1:" + port);
			this.redisson = Redisson.create(config);
		}

		@Override
		public Wait read(String key, Runnable section) {
			return run(this.redisson.getReadWriteLock(key), false, section);
		}

		@Override
		public Wait write(String key, Runnable section) {
			return run(this.redisson.getReadWriteLock(key), true, section);
		}

		private static Wait run(RReadWriteLock readWrite, boolean writer, Runnable section) {
			Lock lock = writer ? readWrite.writeLock() : readWrite.readLock();
			long start = System.nanoTime();
			lock.lock();
			try {
				long waited = System.nanoTime() - start;
				section.run();
				return new Wait(waited, writer);
			}
			finally {
				lock.unlock();
			}
		}

		@Override
		public Wait permit(String key, Runnable section) throws InterruptedException {
			RPermitExpirableSemaphore semaphore = this.redisson.getPermitExpirableSemaphore(key);
			semaphore.trySetPermits(PERMITS);
			long start = System.nanoTime();
			String permit = semaphore.acquire(LEASE.toMillis(), TimeUnit.MILLISECONDS);
			try {
				long waited = System.nanoTime() - start;
				section.run();
				return new Wait(waited, false);
			}
			finally {
				semaphore.release(permit);
			}
		}

		@Override
		public void close() {
			this.redisson.shutdown();
		}

	}

}
