package dev.locksmith.redis;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.locksmith.core.DefaultLockService;
import dev.locksmith.core.EngineSizes;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockUnavailableException;
import dev.locksmith.testing.RedisServer;
import dev.locksmith.testing.RedisServerExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A soak: two engines on one Redis take a steady load of renewed locks doing fenced read-modify-writes,
 * impatient waiters that time out, locks of several keys, minimum holds, abandoned leases released late
 * (failed releases), while the store kills their lock and subscriber connections every few seconds.
 * Heap, live threads, the store's keys and clients and the engines' registries are sampled every
 * second: under load they stay bounded, and once idle they are back to their starting level (heap and
 * threads after a full GC), with no key left without a TTL and no lost update. It runs for
 * {@code locksmith.soak.duration}, 30 s by default in {@code verify}
 * ({@code -Dlocksmith.soak.duration=PT30M} for a long run), and writes its figures to a section of
 * {@code docs/reliability.md}.
 */
@Tag("soak")
class LockSoakTests {

	private static final Duration DURATION = Duration.parse(System.getProperty("locksmith.soak.duration", "PT30S"));

	private static final int WORKERS = 6;

	/** Renewed every third of it, so most critical sections below outlast their first lease. */
	private static final Duration TTL = Duration.ofMillis(600);

	private static final Duration FAULT_EVERY = Duration.ofSeconds(3);

	/**
	 * Threads started once, on first need, that may start after the first sample: Lettuce's computation
	 * pools growing to a thread per core, and the JDK's {@code CompletableFutureDelayScheduler}.
	 */
	private static final int LAZY_THREADS = 2 * Runtime.getRuntime().availableProcessors() + 1;

	/** Load before the first sample, so that every pool and connection is up when it is taken. */
	private static final Duration WARM_UP = Duration.ofSeconds(3);

	@RegisterExtension
	static final RedisServerExtension store = new RedisServerExtension();

	@RegisterExtension
	static final RedisServerExtension checkerStore = new RedisServerExtension();

	@RegisterExtension
	final RedisFixture fixture = new RedisFixture(() -> store.server().connectionFactory());

	private final AtomicLong seeds = new AtomicLong();


	private final AtomicLong cycles = new AtomicLong();

	private final AtomicLong failedClosed = new AtomicLong();

	private final List<Throwable> unexpected = new CopyOnWriteArrayList<>();

	@Test
	void aSteadyLoadWithKilledConnectionsGrowsNothingAndLosesNoUpdate() throws Exception {
		RedisServer redis = store.server();
		List<DefaultLockService> engines = List.of(engine(), engine());
		try (Checker checker = new Checker(checkerStore.server().port())) {
			engines.forEach((engine) -> await().ignoreExceptions()
				.until(() -> engine.tryAcquire("warm-up", LockOptions.ofTtl(TTL)).map(this::close).isPresent()));
			// One thread samples and injects the faults, so that no kill cuts a sample's own connection.
			ScheduledThreadPoolExecutor timers = new ScheduledThreadPoolExecutor(1);
			timers.prestartAllCoreThreads();
			ExecutorService workers = Executors.newFixedThreadPool(WORKERS);
			try {
				load(engines, checker, workers, WARM_UP);
				long started = System.nanoTime();
				SoakSample baseline = SoakSample.take(Duration.ZERO, true, redis, engines);
				List<SoakSample> samples = new CopyOnWriteArrayList<>(List.of(baseline));
				timers.scheduleAtFixedRate(() -> everyTime(() -> samples.add(SoakSample.take(since(started), false,
						redis, engines))), 1, 1, TimeUnit.SECONDS);
				AtomicLong faults = new AtomicLong();
				timers.scheduleAtFixedRate(() -> everyTime(() -> redis.command("CLIENT", "KILL", "TYPE",
						(faults.incrementAndGet() % 2 == 0) ? "pubsub" : "normal")), FAULT_EVERY.toMillis(),
						FAULT_EVERY.toMillis(), TimeUnit.MILLISECONDS);
				load(engines, checker, workers, DURATION);
				timers.shutdownNow();
				SoakSample loaded = samples.get(samples.size() - 1);

				await().atMost(Duration.ofMinutes(1)).untilAsserted(() -> {
					assertThat(engines).as("idle: nothing held").allMatch((engine) -> engine.heldLocks().isEmpty());
					SoakSample now = SoakSample.take(since(started), false, redis, engines);
					assertThat(now.engines()).as("idle: registries, renewals and waiters")
						.isEqualTo(new EngineSizes(0, 0, 0));
					assertThat(now.queueKeys()).as("idle: queue and deadline keys").isZero();
				});
				SoakSample idle = await().atMost(Duration.ofMinutes(1))
					.pollInterval(Duration.ofSeconds(1))
					.alias("the lock store's clients back to their starting number once Lettuce reconnected")
					.until(() -> SoakSample.take(since(started), true, redis, engines),
							(sample) -> sample.clients() == baseline.clients());
				Map<String, Long> totals = checker.snapshot();
				ReliabilityReport.writeSection("soak", report(samples, baseline, idle, totals, faults.get()));

				assertThat(this.unexpected).as("failures other than an unavailable store").isEmpty();
				assertThat(totals.get("sum")).as("no lost update").isEqualTo(totals.get("accepted"));
				assertThat(totals.get("accepted")).as("fenced writes made").isPositive();
				assertThat(samples).as("bounded under load").allSatisfy((sample) -> {
					assertThat(sample.engines().registry()).isLessThanOrEqualTo(20 * WORKERS);
					assertThat(sample.engines().renewals()).isLessThanOrEqualTo(2 * WORKERS);
					assertThat(sample.engines().waiters()).isLessThanOrEqualTo(4 * WORKERS);
					assertThat(sample.queueKeys()).isLessThanOrEqualTo(4 * Checker.KEYS.size());
					assertThat(sample.threads()).isLessThanOrEqualTo(baseline.threads() + LAZY_THREADS + 6);
				});
				assertThat(idle.keysWithoutTtl()).as("keys under the prefix without a TTL").isZero();
				assertThat(idle.lockKeys()).as("only the fencing counters of the keys used are left")
					.isLessThanOrEqualTo(Checker.KEYS.size() + 10 + 5 + 1);
				assertThat(idle.threads()).as("live threads back to the start").isLessThanOrEqualTo(baseline.threads()
						+ LAZY_THREADS);
				assertThat(idle.heapBytes()).as("heap in use after a full GC, against %s at the start and %s under load",
						baseline.heapBytes(), loaded.heapBytes())
					.isLessThanOrEqualTo(baseline.heapBytes() + Math.max(baseline.heapBytes() / 10, 8L << 20));
			}
			finally {
				timers.shutdownNow();
				workers.shutdownNow();
			}
		}
	}

	/** Runs the workload on {@code workers} for {@code duration}. */
	private void load(List<DefaultLockService> engines, Checker checker, ExecutorService workers, Duration duration)
			throws Exception {
		CountDownLatch stop = new CountDownLatch(1);
		List<Future<?>> running = new ArrayList<>();
		for (int i = 0; i < WORKERS; i++) {
			DefaultLockService engine = engines.get(i % engines.size());
			Random random = new Random(this.seeds.incrementAndGet());
			running.add(workers.submit(() -> work(engine, checker, random, stop)));
		}
		stop.await(duration.toMillis(), TimeUnit.MILLISECONDS);
		stop.countDown();
		for (Future<?> worker : running) {
			worker.get(1, TimeUnit.MINUTES);
		}
	}

	/** Until stopped, picks one of the workload's operations at random; an unavailable store is counted. */
	private void work(DefaultLockService engine, Checker checker, Random random, CountDownLatch stop) {
		Deque<LockHandle> abandoned = new ArrayDeque<>();
		while (stop.getCount() > 0) {
			String account = Checker.KEYS.get(random.nextInt(Checker.KEYS.size()));
			int choice = random.nextInt(100);
			try {
				if (choice < 55) {
					engine.tryAcquire(account, LockOptions.ofTtl(TTL).withWaitTime(Duration.ofSeconds(1)))
						.ifPresent((lock) -> fencedWork(lock, List.of(account), checker, stop, random.nextInt(900)));
				}
				else if (choice < 70) {
					engine.tryAcquire(account, LockOptions.ofTtl(TTL).withWaitTime(Duration.ofMillis(50)))
						.ifPresent((lock) -> fencedWork(lock, List.of(account), checker, stop, 0));
				}
				else if (choice < 80) {
					List<String> two = Checker.KEYS.stream().filter((key) -> !key.equals(account)).toList();
					engine.tryAcquireAll(two, LockOptions.ofTtl(TTL).withWaitTime(Duration.ofSeconds(1)))
						.ifPresent((lock) -> fencedWork(lock, two, checker, stop, random.nextInt(300)));
				}
				else if (choice < 90) {
					engine.tryAcquire("abandoned:" + random.nextInt(10), LockOptions.ofTtl(Duration.ofMillis(150))
						.withRenew(false)).ifPresent(abandoned::add);
				}
				else {
					engine.tryAcquire("minimum-hold:" + random.nextInt(5),
							LockOptions.ofTtl(TTL).withHoldAtLeast(Duration.ofMillis(100)))
						.ifPresent(this::close);
				}
				this.cycles.incrementAndGet();
				while (!abandoned.isEmpty() && !abandoned.peek().isHeld()) {
					abandoned.poll().close();
				}
			}
			catch (LockUnavailableException ex) {
				this.failedClosed.incrementAndGet();
				backOff(stop);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
			catch (RuntimeException ex) {
				this.unexpected.add(ex);
			}
		}
		abandoned.forEach(LockHandle::close);
	}

	/** Waits a little after a failed call, as a client backs off, instead of failing in a tight loop. */
	private static void backOff(CountDownLatch stop) {
		try {
			stop.await(50, TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/** Reads each counter with the lock's token, works for {@code millis} (a stop ends it), writes them back. */
	private void fencedWork(LockHandle lock, List<String> keys, Checker checker, CountDownLatch stop, long millis) {
		try (lock) {
			keys.forEach(checker::enter);
			try {
				List<Long> values = keys.stream().map((key) -> checker.read(key, lock.fencingToken(key))).toList();
				stop.await(millis, TimeUnit.MILLISECONDS);
				for (int i = 0; i < keys.size(); i++) {
					if (values.get(i) >= 0) {
						checker.write(keys.get(i), values.get(i) + 1, lock.fencingToken(keys.get(i)));
					}
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			finally {
				keys.forEach(checker::exit);
			}
		}
	}

	private DefaultLockService engine() {
		return this.fixture.service(this.fixture.serviceBuilder().recheckInterval(Duration.ofMillis(200)));
	}

	/** Runs a periodic task, whose failure would cancel its later runs, counting the failure instead. */
	private void everyTime(Runnable task) {
		try {
			task.run();
		}
		catch (RuntimeException ex) {
			this.unexpected.add(ex);
		}
	}

	private boolean close(LockHandle lock) {
		lock.close();
		return true;
	}

	private static Duration since(long started) {
		return Duration.ofNanos(System.nanoTime() - started);
	}

	private String report(List<SoakSample> samples, SoakSample baseline, SoakSample idle, Map<String, Long> totals,
			long faults) {
		StringBuilder report = new StringBuilder("## A soak: nothing grows\n\n").append("""
				Written by `LockSoakTests`, which `./mvnw verify` runs for 30 s; a longer run:
				`./mvnw -pl lock-spring-boot-autoconfigure -am verify -Dtest=LockSoakTests -Dsurefire.failIfNoSpecifiedTests=false -Dlocksmith.soak.duration=PT30M -Dreliability.publish=true`.

				Two engines on one Redis, six threads: renewed locks (600 ms leases) doing fenced read-modify-writes
				for up to 900 ms, impatient waiters giving up after 50 ms, locks of two keys, minimum holds, and
				unrenewed 150 ms leases abandoned and released after they ended (failed releases), while the store
				kills the lock connections and the subscriber connections in turn every 3 s. Sampled every second;
				the first and the last rows are taken after a full GC, before the load and once idle.

				""");
		report.append("Run of ").append(java.time.LocalDate.now()).append(", ").append(DURATION.toSeconds())
			.append(" s of load, Redis ").append(ReliabilityReport.redisVersion(store.server().command("INFO", "server")))
			.append(": ").append(this.cycles.get()).append(" lock operations, ").append(totals.get("accepted"))
			.append(" fenced writes accepted, ").append(totals.getOrDefault("rejected", 0L)).append(" rejected, ")
			.append(totals.get("accepted") - totals.get("sum")).append(" lost updates, ").append(faults)
			.append(" connection kills, ").append(this.failedClosed.get()).append(" calls failed closed.\n\n");
		report.append(SoakSample.header()).append('\n');
		int step = Math.max(1, samples.size() / 20);
		for (int i = 0; i < samples.size(); i += step) {
			report.append(samples.get(i).row()).append('\n');
		}
		report.append(idle.row()).append(" (idle)\n\nAt the start: ").append(baseline.row()).append('\n');
		return report.toString();
	}

}
