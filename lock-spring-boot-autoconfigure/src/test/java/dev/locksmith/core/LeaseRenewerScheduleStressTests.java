package dev.locksmith.core;

import java.lang.reflect.Field;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Phaser;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;

import io.micrometer.observation.Observation;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import java.util.Map;

/**
 * The {@link LeaseRenewer}'s single pending tick under a generated schedule: worker threads register,
 * extend (shorter or longer, then {@code rescheduled}) and unregister leases of 30 to 150 ms on a real
 * renewer and clock, pausing and yielding where a seeded generator says, while the store answers late
 * or fails where the same seed says. At checkpoints, with the workers stopped and no tick running, the
 * renewer's documented invariant must hold: one tick pending, due no later than each lease's renewal
 * due time plus its coalescing window (else a wake-up was lost), and never more than one tick queued.
 * No check depends on how fast anything runs: a checkpoint that finds a tick running looks again.
 * <p>
 * Seed: {@code -Dlocksmith.stress.seed=N} (printed in every failure); size: {@code -Dlocksmith.stress.scale}.
 */
@Tag("slow")
class LeaseRenewerScheduleStressTests {

	private static final int WORKERS = 3;

	private static final int[] TTL_MILLIS = { 30, 45, 60, 90, 150 };

	// The generated store failures are logged as warnings by the renewer: kept quiet here.
	private static final java.util.logging.Logger renewerLog = java.util.logging.Logger
		.getLogger(LeaseRenewer.class.getName());

	@Test
	void aTickIsAlwaysPendingInTimeForEveryRegisteredLeaseAndNeverMoreThanOne() throws Exception {
		java.util.logging.Level level = renewerLog.getLevel();
		renewerLog.setLevel(java.util.logging.Level.SEVERE);
		try {
			runRounds();
		}
		finally {
			renewerLog.setLevel(level);
		}
	}

	private void runRounds() throws Exception {
		Long fixedSeed = Long.getLong("locksmith.stress.seed");
		int rounds = (fixedSeed != null) ? 1 : StressScale.times(3);
		long firstSeed = (fixedSeed != null) ? fixedSeed : new Random().nextLong();
		for (int round = 0; round < rounds; round++) {
			new Round(firstSeed + round, 600).run();
		}
	}

	/** One generated schedule, from {@code seed}. */
	private static final class Round {

		private final long seed;

		private final int opsPerWorker;

		private final Random storeRandom;

		private volatile boolean storeFails = true;

		private final FakeLockBackend backend;

		private final DefaultLockService service;

		private final LeaseRenewer renewer;

		private final AtomicReference<String> violation = new AtomicReference<>();

		private final AtomicInteger checkpoints = new AtomicInteger();

		private final AtomicInteger checkpointsChecked = new AtomicInteger();

		private final AtomicLong ticksSeen = new AtomicLong();

		private final HeldLocks held = new HeldLocks();

		Round(long seed, int opsPerWorker) {
			this.seed = seed;
			this.opsPerWorker = StressScale.times(opsPerWorker);
			this.storeRandom = new Random(seed);
			this.backend = new FakeLockBackend(this::answer);
			this.service = DefaultLockService.builder(new FakeLockBackend()).instanceId("stress").renewal(false).build();
			this.renewer = new LeaseRenewer(new StoreCalls(this.backend, Duration.ofSeconds(30), new Waiters()::handedOver), this.held, this::lost,
					(renewed) -> this.ticksSeen.incrementAndGet());
		}

		/** The store's answer to one extension, on the renewal thread: late, failed or refused as the seed says. */
		private CompletableFuture<Boolean> answer(LockStore.LeaseExtension lease) {
			int roll;
			synchronized (this.storeRandom) {
				roll = this.storeRandom.nextInt(100);
			}
			if (roll < 3) {
				// A slow store: the tick is running while workers register, extend and unregister.
				LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(300L * (roll + 1)));
			}
			if (this.storeFails && roll >= 95) {
				return CompletableFuture.failedFuture(new LockUnavailableException("generated failure", null));
			}
			return CompletableFuture.completedFuture(!this.storeFails || roll != 94);
		}

		/** As the engine does: a lost lease stops being renewed. */
		private void lost(DefaultLockHandle handle) {
			if (handle.markLost()) {
				forget(handle);
			}
		}

		/** As the engine does: the registry holds a lock before the watchdog renews it. */
		private void hold(DefaultLockHandle handle) {
			this.held.add(handle);
			this.renewer.register(handle);
		}

		private void forget(DefaultLockHandle handle) {
			this.held.remove(handle);
			this.renewer.unregister(handle);
		}

		void run() throws Exception {
			// Workers that reach a checkpoint wait there for the others (or for their end); the last one checks.
			Phaser checkpoint = new Phaser(WORKERS) {

				@Override
				protected boolean onAdvance(int phase, int parties) {
					if (parties > 0) {
						checkpoint();
					}
					return parties == 0;
				}

			};
			ExecutorService workers = Executors.newFixedThreadPool(WORKERS);
			try {
				List<Future<?>> running = new ArrayList<>();
				for (int w = 0; w < WORKERS; w++) {
					Random random = new Random(this.seed * 31 + w);
					running.add(workers.submit(() -> work(random, checkpoint)));
				}
				for (Future<?> worker : running) {
					worker.get(5, TimeUnit.MINUTES);
				}
				assertThat(this.violation.get()).as(describe()).isNull();
				assertThat(this.checkpointsChecked.get()).as(describe()).isPositive();
				everyLeaseLeftIsStillRenewed();
			}
			finally {
				workers.shutdownNow();
				this.renewer.close();
				this.service.close();
			}
		}

		private Void work(Random random, Phaser checkpoint) {
			try {
				return steps(random, checkpoint);
			}
			finally {
				checkpoint.arriveAndDeregister();
			}
		}

		private Void steps(Random random, Phaser checkpoint) {
			List<DefaultLockHandle> mine = new ArrayList<>();
			for (int op = 0; op < this.opsPerWorker && this.violation.get() == null; op++) {
				int roll = random.nextInt(100);
				if (roll < 25 || mine.isEmpty()) {
					DefaultLockHandle handle = newHandle(TTL_MILLIS[random.nextInt(TTL_MILLIS.length)]);
					mine.add(handle);
					hold(handle);
				}
				else if (roll < 55) {
					DefaultLockHandle handle = mine.remove(random.nextInt(mine.size()));
					forget(handle);
				}
				else if (roll < 80) {
					// A caller's extend(), answered: a shorter lease brings the renewal forward.
					DefaultLockHandle handle = mine.get(random.nextInt(mine.size()));
					int ttl = TTL_MILLIS[random.nextInt(TTL_MILLIS.length)];
					handle.leaseStarted(System.nanoTime(), Duration.ofMillis(ttl));
					this.renewer.rescheduled(handle);
				}
				else if (roll < 90) {
					Thread.yield();
				}
				else {
					LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(random.nextInt(3000)));
				}
				int queued = queuedTicks();
				if (queued > 1) {
					this.violation.compareAndSet(null, queued + " ticks queued");
				}
				if (random.nextInt(40) == 0) {
					checkpoint.arriveAndAwaitAdvance();
				}
			}
			return null;
		}

		private DefaultLockHandle newHandle(int ttlMillis) {
			return new DefaultLockHandle(this.service.leases(), List.of("k"), LockOwner.exclusive("owner"), Map.of("k", 1L),
					LockOptions.ofTtl(Duration.ofMillis(ttlMillis)), Duration.ofMillis(1), System.nanoTime(),
					Duration.ofMillis(ttlMillis), Observation.NOOP);
		}

		/**
		 * With every worker stopped, checks the invariant once no tick runs: reads the tick pending between two
		 * readings of the scheduler that show no task active and none completed in between.
		 */
		private void checkpoint() {
			this.checkpoints.incrementAndGet();
			ScheduledThreadPoolExecutor scheduler = field(this.renewer, "scheduler");
			for (int attempt = 0; attempt < 100_000; attempt++) {
				long completedBefore = scheduler.getCompletedTaskCount();
				int activeBefore = scheduler.getActiveCount();
				Object pending = field(this.renewer, "pending");
				Set<DefaultLockHandle> leases = this.held.renewed().collect(Collectors.toSet());
				int queued = scheduler.getQueue().size();
				int activeAfter = scheduler.getActiveCount();
				long completedAfter = scheduler.getCompletedTaskCount();
				if (activeBefore != 0 || activeAfter != 0 || completedBefore != completedAfter) {
					Thread.yield();
					continue;
				}
				this.checkpointsChecked.incrementAndGet();
				if (queued > 1) {
					this.violation.compareAndSet(null, queued + " ticks queued at a checkpoint");
				}
				for (DefaultLockHandle lease : leases) {
					long latest = lease.renewalDueNanos() + lease.ttl().toNanos() / 6;
					if (pending == null) {
						this.violation.compareAndSet(null, "lost wake-up: no tick pending or running for a lease of "
								+ lease.ttl().toMillis() + " ms among " + leases.size());
						return;
					}
					long tickDue = this.<Long>field(pending, "dueNanos");
					if (tickDue - latest > 0) {
						this.violation.compareAndSet(null, "lost wake-up: the pending tick is due "
								+ Duration.ofNanos(tickDue - latest) + " after a lease of " + lease.ttl().toMillis()
								+ " ms must be renewed");
						return;
					}
				}
				return;
			}
		}

		/** Once the workers stop and the store answers, each lease left is renewed again, however late. */
		private void everyLeaseLeftIsStillRenewed() {
			this.storeFails = false;
			Set<DefaultLockHandle> leases = this.held.renewed().collect(Collectors.toSet());
			ConcurrentHashMap<DefaultLockHandle, Long> dueAtStop = new ConcurrentHashMap<>();
			leases.forEach((lease) -> dueAtStop.put(lease, lease.renewalDueNanos()));
			await().atMost(Duration.ofMinutes(2))
				.pollInterval(Duration.ofMillis(10))
				.untilAsserted(() -> assertThat(dueAtStop.entrySet())
					.as(describe() + ": leases renewed after the workers stopped")
					.allSatisfy((entry) -> assertThat(entry.getKey().isActive()
							? entry.getKey().renewalDueNanos() - entry.getValue() > 0 : true).isTrue()));
			assertThat(queuedTicks()).as(describe()).isLessThanOrEqualTo(1);
		}

		private int queuedTicks() {
			return this.renewer.pendingTicks();
		}

		private String describe() {
			return "seed " + this.seed + " (rerun with -Dlocksmith.stress.seed=" + this.seed + "), "
					+ this.checkpointsChecked.get() + " of " + this.checkpoints.get() + " checkpoints checked, "
					+ this.ticksSeen.get() + " renewal calls";
		}

		@SuppressWarnings("unchecked")
		private <T> T field(Object target, String name) {
			try {
				Field field = target.getClass().getDeclaredField(name);
				field.setAccessible(true);
				return (T) field.get(target);
			}
			catch (ReflectiveOperationException ex) {
				throw new IllegalStateException(ex);
			}
		}

	}

}
