package dev.locksmith.redis;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import java.util.stream.Stream;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.aop.framework.ProxyFactory;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;

import dev.locksmith.aop.DistributedLockAdvisor;
import dev.locksmith.core.DefaultLockService;
import dev.locksmith.core.EngineSizes;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockLostException;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockUnavailableException;
import dev.locksmith.testing.RedisServer;
import dev.locksmith.testing.RedisServerExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A soak: two engines on one Redis take a steady load of renewed locks doing fenced read-modify-writes,
 * impatient waiters that time out, locks of several keys, minimum holds, abandoned leases released late
 * (failed releases), fenced work under {@code @DistributedLock} held until a {@code CompletionStage}, a
 * {@code Mono} or a {@code Flux} completes, unrenewed locks whose asynchronous or reactive work outlives
 * the lease (lost leases), and bare lock cycles by each path, while the store kills their lock and
 * subscriber connections every few seconds. Heap, live threads, the store's keys, clients and memory and
 * the engines' registries are sampled every second: under load they stay bounded, and once idle they are
 * back to their starting level (heap and threads after a full GC, Redis memory less what the keys left
 * take), with no key left without a TTL and no lost update. It runs for {@code locksmith.soak.duration},
 * 10 s by default in {@code verify}, or until {@code locksmith.soak.cycles} lock cycles are done, and
 * writes its figures to a section of {@code docs/reliability.md}.
 */
@Tag("soak")
class LockSoakTests {

	private static final Duration DURATION = Duration.parse(System.getProperty("locksmith.soak.duration", "PT10S"));

	/** Lock cycles to run instead of {@link #DURATION}, when positive. */
	private static final long CYCLES = Long.getLong("locksmith.soak.cycles", 0);

	private static final int WORKERS = 6;

	/** Workers that add bare lock cycles, so that a million of them fit in minutes. */
	private static final int CYCLING_WORKERS = 2;

	/** The longest wait for one asynchronous or reactive call. */
	private static final Duration PATIENCE = Duration.ofSeconds(30);

	/** Renewed every third of it, so most critical sections below outlast their first lease. */
	private static final Duration TTL = Duration.ofMillis(600);

	private static final Duration FAULT_EVERY = Duration.ofSeconds(3);

	/**
	 * Threads started once, on first need, that may start after the first sample: Lettuce's computation
	 * pools growing to a thread per core, and the JDK's {@code CompletableFutureDelayScheduler}.
	 */
	private static final int LAZY_THREADS = 2 * Runtime.getRuntime().availableProcessors() + 1;

	/** How much more heap in use than at the start the idle sample may show, after a full GC. */
	private static final int HEAP_TOLERANCE_PERCENT = 5;

	/** How much more Redis memory beside the keys than at the start the idle sample may show. */
	private static final int REDIS_TOLERANCE_PERCENT = 5;

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

	private final AtomicLong lostLeases = new AtomicLong();

	private final AtomicLong outlived = new AtomicLong();

	private final AtomicLong outlivedUnnoticed = new AtomicLong();

	/** Outliving calls that found their lock busy and did not run. */
	private final AtomicLong outlivedSkipped = new AtomicLong();

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
			ExecutorService workers = Executors.newFixedThreadPool(WORKERS + CYCLING_WORKERS);
			try {
				load(engines, checker, workers, WARM_UP, 0);
				// Every script in Redis's script cache before the baseline: a script first used under load is a
				// one-time cost of Redis's memory, not growth (the share and step-aside scripts hold hand-on.lua each)
				Stream.of(LockScripts.ACQUIRE, LockScripts.RELEASE, LockScripts.STEP_ASIDE, LockScripts.EXTEND,
						LockScripts.ACQUIRE_SHARE, LockScripts.RELEASE_SHARE, LockScripts.EXTEND_SHARES,
						LockScripts.IS_LOCKED, LockScripts.FORCE_RELEASE, LockScripts.RAISE_FENCES,
						LockScripts.ANNOUNCE_RELEASE)
					.forEach((script) -> redis.command("SCRIPT", "LOAD", script.getScriptAsString()));
				// Nor the slow log: on a loaded machine a script descheduled mid-run takes over 10 ms, and Redis
				// keeps up to 128 such commands with their arguments, memory that is not the locks'
				redis.command("CONFIG", "SET", "slowlog-log-slower-than", "-1");
				redis.command("SLOWLOG", "RESET");
				this.cycles.set(0);
				long started = System.nanoTime();
				SoakSample baseline = SoakSample.take(Duration.ZERO, true, redis, engines);
				List<SoakSample> samples = new CopyOnWriteArrayList<>(List.of(baseline));
				timers.scheduleAtFixedRate(() -> everyTime(() -> samples.add(SoakSample.take(since(started), false,
						redis, engines))), 1, 1, TimeUnit.SECONDS);
				AtomicLong faults = new AtomicLong();
				timers.scheduleAtFixedRate(() -> everyTime(() -> redis.command("CLIENT", "KILL", "TYPE",
						(faults.incrementAndGet() % 2 == 0) ? "pubsub" : "normal")), FAULT_EVERY.toMillis(),
						FAULT_EVERY.toMillis(), TimeUnit.MILLISECONDS);
				load(engines, checker, workers, DURATION, CYCLES);
				Duration loadedFor = since(started);
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
					.alias("the lock store's clients back to at most their starting number once Lettuce reconnected"
							+ " (fewer once idle keys are unsubscribed), and the live threads to theirs")
					.atMost(Duration.ofMinutes(2))
					.until(() -> SoakSample.take(since(started), true, redis, engines),
							(sample) -> sample.clients() <= baseline.clients()
									&& sample.threads() <= baseline.threads() + LAZY_THREADS);
				Map<String, Long> totals = checker.snapshot();
				ReliabilityReport.writeSection("soak", report(samples, baseline, idle, totals, faults.get(), loadedFor));

				assertThat(this.unexpected).as("failures other than an unavailable store or a lost lease").isEmpty();
				assertThat(this.outlivedUnnoticed).as("work that outlived its lease and ended as if it held it").hasValue(0);
				assertThat(this.outlived).as("work that outlived its lease").hasPositiveValue();
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
					.isLessThanOrEqualTo(Checker.KEYS.size() + 10 + 5 + 5 + 3 * 100 + 1);
				assertThat(idle.threads()).as("live threads back to the start").isLessThanOrEqualTo(baseline.threads()
						+ LAZY_THREADS);
				assertThat(idle.heapBytes()).as("heap in use after a full GC, against %s at the start and %s under load",
						baseline.heapBytes(), loaded.heapBytes())
					.isLessThanOrEqualTo(baseline.heapBytes() * (100 + HEAP_TOLERANCE_PERCENT) / 100);
				// Redis gives back clients' buffers in its cron, a few clients at a time: a leak stays, they do not
				await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofSeconds(1)).untilAsserted(() ->
					assertThat(SoakSample.take(since(started), true, redis, engines).usedMemoryBesideKeys())
						.as("Redis used_memory less the keys' MEMORY USAGE, against %s and %s at the start",
								baseline.usedMemory(), baseline.keyBytes())
						.isLessThanOrEqualTo(baseline.usedMemoryBesideKeys() * (100 + REDIS_TOLERANCE_PERCENT) / 100));
			}
			finally {
				redis.command("CONFIG", "SET", "slowlog-log-slower-than", "10000");
				timers.shutdownNow();
				workers.shutdownNow();
			}
		}
	}

	/**
	 * Runs the workload on {@code workers} for {@code duration}, or until {@code cycles} lock cycles are done
	 * when that is positive.
	 */
	private void load(List<DefaultLockService> engines, Checker checker,
			ExecutorService workers, Duration duration, long cycles) throws Exception {
		CountDownLatch stop = new CountDownLatch(1);
		List<Future<?>> running = new ArrayList<>();
		for (int i = 0; i < WORKERS + CYCLING_WORKERS; i++) {
			DefaultLockService engine = engines.get(i % engines.size());
			Random random = new Random(this.seeds.incrementAndGet());
			running.add(workers.submit((i < WORKERS)
					? () -> work(engine, lockedCalls(engine, (lock, keys) -> increment(lock, keys, checker, () -> { })),
							checker, random, stop)
					: () -> cycle(engine, lockedCalls(engine, (lock, keys) -> { }), random, stop)));
		}
		if (cycles > 0) {
			while (this.cycles.get() < cycles && this.unexpected.isEmpty()) {
				stop.await(100, TimeUnit.MILLISECONDS);
			}
		}
		else {
			stop.await(duration.toMillis(), TimeUnit.MILLISECONDS);
		}
		stop.countDown();
		for (Future<?> worker : running) {
			worker.get(1, TimeUnit.MINUTES);
		}
	}

	/** Until stopped, picks one of the workload's operations at random; an unavailable store is counted. */
	private void work(DefaultLockService engine, SoakLockedCalls calls, Checker checker, Random random,
			CountDownLatch stop) {
		Deque<LockHandle> abandoned = new ArrayDeque<>();
		boolean going = true;
		while (going && stop.getCount() > 0) {
			String account = Checker.KEYS.get(random.nextInt(Checker.KEYS.size()));
			List<String> two = Checker.KEYS.stream().filter((key) -> !key.equals(account)).toList();
			int choice = random.nextInt(100);
			going = counted(stop, () -> {
				if (choice < 40) {
					engine.tryAcquire(account, LockOptions.ofTtl(TTL).withWaitTime(Duration.ofSeconds(1)))
						.ifPresent((lock) -> fencedWork(lock, List.of(account), checker, stop, random.nextInt(900)));
				}
				else if (choice < 50) {
					engine.tryAcquire(account, LockOptions.ofTtl(TTL).withWaitTime(Duration.ofMillis(50)))
						.ifPresent((lock) -> fencedWork(lock, List.of(account), checker, stop, 0));
				}
				else if (choice < 58) {
					engine.tryAcquireAll(two, LockOptions.ofTtl(TTL).withWaitTime(Duration.ofSeconds(1)))
						.ifPresent((lock) -> fencedWork(lock, two, checker, stop, random.nextInt(300)));
				}
				else if (choice < 64) {
					engine.tryAcquire("abandoned:" + random.nextInt(10), LockOptions.ofTtl(Duration.ofMillis(150))
						.withRenew(false)).ifPresent(abandoned::add);
				}
				else if (choice < 70) {
					engine.tryAcquire("minimum-hold:" + random.nextInt(5),
							LockOptions.ofTtl(TTL).withHoldAtLeast(Duration.ofMillis(100)))
						.ifPresent(this::close);
				}
				else if (choice < 80) {
					join(calls.later(id(account)));
				}
				else if (choice < 88) {
					calls.reactive(id(account)).block(PATIENCE);
				}
				else if (choice < 94) {
					calls.reactiveBoth(id(two.get(0)), id(two.get(1))).blockLast(PATIENCE);
				}
				else {
					outlive(calls, String.valueOf(random.nextInt(5)), choice % 2 == 0);
				}
			});
			while (!abandoned.isEmpty() && !abandoned.peek().isHeld()) {
				abandoned.poll().close();
			}
		}
		abandoned.forEach(LockHandle::close);
	}

	/**
	 * Runs one operation of the workload and counts it as a cycle; an unavailable store and a lost lease
	 * are counted apart. False once interrupted.
	 */
	private boolean counted(CountDownLatch stop, Operation operation) {
		try {
			operation.run();
			this.cycles.incrementAndGet();
		}
		catch (LockUnavailableException ex) {
			this.failedClosed.incrementAndGet();
			backOff(stop);
		}
		catch (LockLostException ex) {
			this.lostLeases.incrementAndGet();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
		catch (RuntimeException ex) {
			this.unexpected.add(ex);
		}
		return true;
	}

	/** What {@code @DistributedLock(name = "account")} takes to lock {@code account}. */
	private static String id(String account) {
		return account.substring("account:".length());
	}

	/** Until stopped, lock cycles with no work on keys nobody else takes, by every path, as fast as they go. */
	private void cycle(DefaultLockService engine, SoakLockedCalls bare, Random random, CountDownLatch stop) {
		boolean going = true;
		while (going && stop.getCount() > 0) {
			String key = "cycle:" + random.nextInt(100);
			int path = random.nextInt(4);
			going = counted(stop, () -> {
				switch (path) {
					case 0 -> engine.tryAcquire(key, LockOptions.ofTtl(TTL)).ifPresent(this::close);
					case 1 -> engine.tryAcquireAll(List.of(key, key + ":other"), LockOptions.ofTtl(TTL))
						.ifPresent(this::close);
					case 2 -> join(bare.later(key));
					default -> bare.reactive(key).block(PATIENCE);
				}
			});
		}
	}

	/** Work that outlives its unrenewed lease, asynchronous or reactive: it must end with a lost lease. */
	private void outlive(SoakLockedCalls calls, String key, boolean reactive) throws InterruptedException {
		try {
			Boolean ran = reactive ? calls.outlive(key).block(PATIENCE) : join(calls.outliveLater(key));
			(Boolean.TRUE.equals(ran) ? this.outlivedUnnoticed : this.outlivedSkipped).incrementAndGet();
		}
		catch (LockLostException ex) {
			this.outlived.incrementAndGet();
		}
	}

	/** The stage's result; its failure rethrown as it was. */
	private static <T> T join(CompletionStage<T> stage) throws InterruptedException {
		try {
			return stage.toCompletableFuture().get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (ExecutionException ex) {
			if (ex.getCause() instanceof RuntimeException failure) {
				throw failure;
			}
			throw new IllegalStateException(ex.getCause());
		}
		catch (TimeoutException ex) {
			throw new IllegalStateException("no result after " + PATIENCE, ex);
		}
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
			increment(lock, keys, checker, () -> {
				try {
					stop.await(millis, TimeUnit.MILLISECONDS);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			});
		}
	}

	/** Reads each counter with the lock's token, runs {@code pause}, and writes each counter back plus one. */
	private static void increment(LockHandle lock, List<String> keys, Checker checker, Runnable pause) {
		keys.forEach(checker::enter);
		try {
			List<Long> values = keys.stream().map((key) -> checker.read(key, lock.fencingToken(key))).toList();
			pause.run();
			for (int i = 0; i < keys.size(); i++) {
				if (values.get(i) >= 0) {
					checker.write(keys.get(i), values.get(i) + 1, lock.fencingToken(keys.get(i)));
				}
			}
		}
		finally {
			keys.forEach(checker::exit);
		}
	}

	/** {@code engine}'s {@code @DistributedLock} calls, proxied as an application's bean would be. */
	private static SoakLockedCalls lockedCalls(DefaultLockService engine, BiConsumer<LockHandle, List<String>> work) {
		ProxyFactory proxy = new ProxyFactory(new SoakLockedCalls(work));
		proxy.setProxyTargetClass(true);
		proxy.addAdvisor(new DistributedLockAdvisor(() -> engine, new DefaultListableBeanFactory(), () -> TTL,
				() -> Duration.ofSeconds(1)));
		return (SoakLockedCalls) proxy.getProxy();
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
			long faults, Duration loadedFor) {
		StringBuilder report = new StringBuilder("## A soak: nothing grows\n\n").append("""
				Written by `LockSoakTests`, which `./mvnw verify` runs for 10 s; a longer run, for a time or until a
				number of lock cycles is done:
				`./mvnw -pl lock-spring-boot-autoconfigure -am verify -Dtest=LockSoakTests -Dsurefire.failIfNoSpecifiedTests=false -Dlocksmith.soak.duration=PT30M -Dreliability.publish=true`
				or the same with `-Dlocksmith.soak.cycles=1000000` in place of `-Dlocksmith.soak.duration=PT30M`.

				Two engines on one Redis, eight threads. Six pick at random: renewed locks (600 ms leases) doing
				fenced read-modify-writes for up to 900 ms, impatient waiters giving up after 50 ms, locks of two
				keys, minimum holds, unrenewed 150 ms leases abandoned and released after they ended (failed
				releases), and through `@DistributedLock` fenced work held until a `CompletionStage`, a `Mono` or a
				`Flux` of two keys completes, and unrenewed 150 ms locks whose `CompletionStage` or `Mono` outlives
				its lease (each must end with `LockLostException`). Two add bare lock cycles on 100 keys, by the
				single-key, two-key, `CompletionStage` and `Mono` paths. Meanwhile the store kills the lock
				connections and the subscriber connections in turn every 3 s. A cycle is one lock taken (or given
				up) and released. Sampled every second; the first and the last rows are taken after a full GC,
				before the load and once idle.

				""").append("Checks once idle: heap in use after a full GC at most ").append(HEAP_TOLERANCE_PERCENT)
			.append(" % above the start; live threads back to the start, give or take ").append(LAZY_THREADS)
			.append(" (pools that start on first need; Reactor's elastic workers, capped at ten per core and idle for"
					+ " 60 s before they end, are not counted); no key under the prefix without a TTL; no queue or deadline"
					+ " key; the store's clients at most their number at the start (the subscriber's connection closes"
					+ " once no key is watched); Redis `used_memory` less the `MEMORY USAGE` of the keys left under the"
					+ " prefix (the fencing counters, which live on for their lifetime, and the keys of the start) at"
					+ " most ")
			.append(REDIS_TOLERANCE_PERCENT).append(" % above the same figure at the start; 0 lost updates.\n\n");
		report.append("Run of ").append(java.time.LocalDate.now()).append(", ").append(loadedFor.toSeconds())
			.append(" s of load, Redis ").append(ReliabilityReport.redisVersion(store.server().command("INFO", "server")))
			.append(": ").append(this.cycles.get()).append(" lock cycles, ").append(totals.get("accepted"))
			.append(" fenced writes accepted, ").append(totals.getOrDefault("rejected", 0L)).append(" rejected, ")
			.append(totals.get("accepted") - totals.get("sum")).append(" lost updates, ").append(this.outlived.get())
			.append(" leases outlived and reported lost, ").append(this.outlivedUnnoticed.get())
			.append(" unnoticed (").append(this.outlivedSkipped.get()).append(" skipped, their lock busy), ").append(this.lostLeases.get()).append(" other leases lost, ").append(faults)
			.append(" connection kills, ").append(this.failedClosed.get()).append(" calls failed closed.\n\n");
		report.append(SoakSample.header()).append('\n');
		int step = Math.max(1, samples.size() / 20);
		for (int i = 0; i < samples.size(); i += step) {
			report.append(samples.get(i).row()).append('\n');
		}
		report.append(idle.row()).append(" (idle)\n\nAt the start: ").append(baseline.row()).append('\n');
		return report.toString();
	}

	/** One operation of the workload. */
	@FunctionalInterface
	private interface Operation {

		void run() throws InterruptedException;

	}

}
