package dev.locksmith.adapters.shedlock;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;

import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.DefaultLockingTaskExecutor;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockExtender;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.locksmith.adapters.RedisLockServices;
import dev.locksmith.core.LockUnavailableException;
import dev.locksmith.testing.FaultyProxy;
import dev.locksmith.testing.RedisServerExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * ShedLock's documented provider semantics, on a real Redis: one holder at a time, {@code lockAtMostFor},
 * {@code lockAtLeastFor}, unlock and extend, and a fuzz test of many threads on several names; an
 * unreachable store fails the task instead of running it unlocked.
 */
class LocksmithLockProviderContractTests {

	@RegisterExtension
	static final RedisServerExtension redisServer = new RedisServerExtension();

	private static final Duration LONG = Duration.ofSeconds(30);

	/** Long enough for a slow, shared machine to check the lock before it ends, short enough to wait for. */
	private static final Duration SHORT = Duration.ofSeconds(2);

	private RedisLockServices services;

	private LockProvider provider;

	@BeforeEach
	void connect() {
		this.services = new RedisLockServices(redisServer.server());
		this.provider = new LocksmithLockProvider(this.services.newService());
	}

	@AfterEach
	void close() throws Exception {
		this.services.close();
	}

	@Test
	void aFreeLockIsGrantedAndGrantedAgainRightAfterItsUnlock() {
		lock("report", LONG, Duration.ZERO).orElseThrow().unlock();

		Optional<SimpleLock> again = lock("report", LONG, Duration.ZERO);

		assertThat(again).isPresent();
		again.get().unlock();
	}

	@Test
	void aHeldLockIsGrantedToNobodyElseInThisOrAnotherProcess() {
		LockProvider otherProcess = new LocksmithLockProvider(this.services.newService());
		SimpleLock held = lock("report", LONG, Duration.ZERO).orElseThrow();

		assertThat(lock("report", LONG, Duration.ZERO)).isEmpty();
		assertThat(otherProcess.lock(configuration("report", LONG, Duration.ZERO))).isEmpty();
		assertThat(lock("other-report", LONG, Duration.ZERO)).isPresent();
		held.unlock();
	}

	@Test
	void lockAtMostForIsTheLeaseAndItIsNotRenewed() {
		lock("report", SHORT, Duration.ZERO).orElseThrow();

		assertThat(this.services.leaseMillis("report")).isBetween(1L, SHORT.toMillis());
		await().atMost(Duration.ofSeconds(10)).until(() -> lock("report", LONG, Duration.ZERO).isPresent());
	}

	@Test
	void lockAtLeastForKeepsTheLockTakenAfterAnEarlyUnlock() {
		long start = System.nanoTime();
		lock("report", LONG, SHORT).orElseThrow().unlock();

		assertThat(lock("report", LONG, Duration.ZERO)).isEmpty();
		assertThat(this.services.leaseMillis("report")).isBetween(1L, SHORT.toMillis());
		await().atMost(Duration.ofSeconds(10)).until(() -> lock("report", LONG, Duration.ZERO).isPresent());
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(SHORT);
	}

	@Test
	void aLockIsUnlockedOnlyOnce() {
		SimpleLock held = lock("report", LONG, Duration.ZERO).orElseThrow();
		held.unlock();

		assertThatIllegalStateException().isThrownBy(held::unlock);
	}

	@Test
	void extendSetsANewLockAtMostForAndGivesTheLockThatIsUnlockedInstead() {
		SimpleLock held = lock("report", SHORT, Duration.ZERO).orElseThrow();

		SimpleLock extended = held.extend(LONG, Duration.ZERO).orElseThrow();

		assertThat(this.services.leaseMillis("report")).isGreaterThan(Duration.ofSeconds(20).toMillis());
		assertThatIllegalStateException().isThrownBy(held::unlock);
		assertThatIllegalStateException().isThrownBy(() -> held.extend(LONG, Duration.ZERO));
		assertThat(lock("report", LONG, Duration.ZERO)).isEmpty();
		extended.unlock();
		assertThat(lock("report", LONG, Duration.ZERO)).isPresent();
	}

	@Test
	void theExtensionsLockAtLeastForKeepsTheLockTakenAfterItsUnlock() {
		SimpleLock held = lock("report", LONG, Duration.ZERO).orElseThrow();

		held.extend(LONG, SHORT).orElseThrow().unlock();

		assertThat(lock("report", LONG, Duration.ZERO)).isEmpty();
		assertThat(this.services.leaseMillis("report")).isBetween(1L, SHORT.toMillis());
		await().atMost(Duration.ofSeconds(10)).until(() -> lock("report", LONG, Duration.ZERO).isPresent());
	}

	@Test
	void aLockWhoseLockAtMostForEndedCannotBeExtended() {
		SimpleLock held = lock("report", Duration.ofMillis(100), Duration.ZERO).orElseThrow();
		await().until(() -> this.services.leaseMillis("report") < 0);

		assertThat(held.extend(LONG, Duration.ZERO)).isEmpty();
	}

	@Test
	void anUnreachableStoreThrowsLockUnavailableExceptionAndTheTaskDoesNotRun() {
		try (FaultyProxy proxy = FaultyProxy.start(redisServer.server().port())) {
			LockProvider cutOff = new LocksmithLockProvider(this.services.newService(proxy.port()));
			cutOff.lock(configuration("report", LONG, Duration.ZERO)).orElseThrow().unlock();
			DefaultLockingTaskExecutor executor = new DefaultLockingTaskExecutor(cutOff);
			AtomicBoolean ran = new AtomicBoolean();

			proxy.blackhole();

			assertThatExceptionOfType(LockUnavailableException.class).isThrownBy(
					() -> executor.executeWithLock((Runnable) () -> ran.set(true), configuration("report", LONG, Duration.ZERO)));
			assertThat(ran).isFalse();
		}
	}

	@Test
	void aTaskExtendsItsLockThroughLockExtender() {
		DefaultLockingTaskExecutor executor = new DefaultLockingTaskExecutor(this.provider);
		List<Long> leases = new ArrayList<>();

		executor.executeWithLock((Runnable) () -> {
			LockExtender.extendActiveLock(LONG, Duration.ZERO);
			leases.add(this.services.leaseMillis("report"));
		}, configuration("report", SHORT, Duration.ZERO));

		assertThat(leases).singleElement().satisfies((lease) -> assertThat(lease).isGreaterThan(20_000L));
		assertThat(this.services.leaseMillis("report")).isNegative();
	}

	@Test
	void manyThreadsOfTwoProcessesOnSeveralNamesNeverHoldOneNameTogether() throws Exception {
		List<LockProvider> processes = List.of(this.provider, new LocksmithLockProvider(this.services.newService()));
		int names = 3;
		int threads = 8;
		int grantsPerThread = 25;
		AtomicIntegerArray holders = new AtomicIntegerArray(names);
		AtomicIntegerArray counters = new AtomicIntegerArray(names);
		AtomicIntegerArray overlaps = new AtomicIntegerArray(names);
		ExecutorService pool = Executors.newFixedThreadPool(threads);
		List<Future<?>> workers = new ArrayList<>();
		for (int t = 0; t < threads; t++) {
			LockProvider process = processes.get(t % processes.size());
			int first = t;
			workers.add(pool.submit(() -> {
				for (int grants = 0, attempt = first; grants < grantsPerThread; attempt++) {
					int name = attempt % names;
					Optional<SimpleLock> lock = process.lock(configuration("fuzz-" + name, LONG, Duration.ZERO));
					if (lock.isPresent()) {
						if (holders.incrementAndGet(name) != 1) {
							overlaps.incrementAndGet(name);
						}
						int seen = counters.get(name);
						Thread.yield();
						counters.set(name, seen + 1);
						holders.decrementAndGet(name);
						lock.get().unlock();
						grants++;
					}
				}
			}));
		}
		for (Future<?> worker : workers) {
			worker.get(2, TimeUnit.MINUTES);
		}
		pool.shutdown();

		int total = 0;
		for (int name = 0; name < names; name++) {
			assertThat(overlaps.get(name)).as("overlapping holders of fuzz-" + name).isZero();
			total += counters.get(name);
		}
		assertThat(total).isEqualTo(threads * grantsPerThread);
	}

	private Optional<SimpleLock> lock(String name, Duration lockAtMostFor, Duration lockAtLeastFor) {
		return this.provider.lock(configuration(name, lockAtMostFor, lockAtLeastFor));
	}

	private static LockConfiguration configuration(String name, Duration lockAtMostFor, Duration lockAtLeastFor) {
		return new LockConfiguration(ClockProvider.now(), name, lockAtMostFor, lockAtLeastFor);
	}

}
