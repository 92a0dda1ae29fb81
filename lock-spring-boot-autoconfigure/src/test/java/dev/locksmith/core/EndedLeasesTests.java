package dev.locksmith.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/** The engine forgets locks whose unrenewed lease ended, whatever the store: no registry that only grows. */
class EndedLeasesTests {

	private final DefaultLockService locks = DefaultLockService.builder(new FakeLockBackend()).build();

	@AfterEach
	void close() {
		this.locks.close();
	}

	@Test
	void unrenewedLocksWhoseLeaseEndedLeaveHeldLocksAndTheRegistry() throws Exception {
		LockOptions shortLease = LockOptions.ofTtl(Duration.ofMillis(300)).withRenew(false);
		List<LockHandle> abandoned = new ArrayList<>();
		for (int i = 0; i < 50; i++) {
			abandoned.add(this.locks.tryAcquire("job:" + i, shortLease).orElseThrow());
		}

		await().atMost(Duration.ofSeconds(10)).until(() -> this.locks.heldLocks().isEmpty());
		assertThat(this.locks.leases().held().size()).isZero();

		for (int i = 0; i < 50; i++) {
			abandoned.add(this.locks.tryAcquire("next:" + i, shortLease).orElseThrow());
		}
		await().atMost(Duration.ofSeconds(10)).until(() -> abandoned.stream().noneMatch(LockHandle::isHeld));
		this.locks.tryAcquire("other", LockOptions.ofTtl(Duration.ofSeconds(30))).orElseThrow();
		// a lock is forgotten by the thread that found it lost, which another that looked may overtake
		await("locks found lost leave the registry").atMost(Duration.ofSeconds(10))
			.until(() -> this.locks.leases().held().size() == 1);
	}

	@Test
	void endedLeasesThatNothingReportsLostAreSweptAsMoreLocksAreAdded() throws Exception {
		// closed, the engine watches no lease end: nothing reports these locks lost but the registry's sweep
		this.locks.close();
		List<LockHandle> abandoned = new ArrayList<>();
		for (int i = 0; i < 10; i++) {
			abandoned.add(this.locks.tryAcquire("abandoned:" + i, LockOptions.ofTtl(Duration.ofMillis(20)).withRenew(false))
				.orElseThrow());
		}
		// waits on the engine's own view of each lease, without isHeld(), which would report the loss itself
		await().atMost(Duration.ofSeconds(10))
			.until(() -> abandoned.stream().map(DefaultLockHandle.class::cast).noneMatch(DefaultLockHandle::leaseRuns));
		int kept = HeldLocks.MIN_ADDS_PER_SWEEP - abandoned.size();
		for (int i = 0; i < kept; i++) {
			this.locks.tryAcquire("kept:" + i, LockOptions.ofTtl(Duration.ofMinutes(5)).withRenew(false)).orElseThrow();
		}
		assertThat(this.locks.leases().held().size()).as("ended leases swept at the registry's first sweep")
			.isEqualTo(kept);
		assertThat(abandoned.get(0).lost()).as("a lease the sweep found ended is reported lost")
			.succeedsWithin(Duration.ofSeconds(10));
	}

	@Test
	void aLockWhoseAcquisitionFailedInTheSweepIsNeitherListedNorRenewed() throws Exception {
		Map<String, AtomicInteger> extensions = new ConcurrentHashMap<>();
		FakeLockBackend backend = new FakeLockBackend((lease) -> {
			extensions.computeIfAbsent(lease.key(), (key) -> new AtomicInteger()).incrementAndGet();
			return CompletableFuture.completedFuture(true);
		});
		ObservationRegistry observations = ObservationRegistry.create();
		observations.observationConfig().observationHandler(new FailingOnStop("ended"));
		try (DefaultLockService engine = DefaultLockService.builder(backend).observationRegistry(observations).build()) {
			LockHandle renewed = engine.tryAcquire("renewed", LockOptions.ofTtl(Duration.ofMillis(300))).orElseThrow();
			// a lease that ended unreported (a loaded machine), whose loss fails in a listener when the sweep finds it
			DefaultLockHandle ended = new DefaultLockHandle(engine.leases(), List.of("ended"), LockOwner.exclusive("i:x-1-1"),
					Map.of("ended", 1L), LockOptions.ofTtl(Duration.ofMillis(10)).withRenew(false), Duration.ZERO,
					System.nanoTime() - Duration.ofSeconds(1).toNanos(), Duration.ofMillis(10),
					Observation.start("ended", observations));
			// each add counts towards the next sweep: the acquisition below makes the add that sweeps
			for (int added = 2; added < HeldLocks.MIN_ADDS_PER_SWEEP; added++) {
				engine.leases().held().add(ended);
			}

			assertThatIllegalStateException().isThrownBy(() -> engine.tryAcquire("failed", LockOptions.ofTtl(Duration.ofMillis(300))))
				.withMessage("a failing observation handler");

			await("the watchdog renewing the other lock three times").atMost(Duration.ofSeconds(10))
				.until(() -> extensions.getOrDefault("renewed", new AtomicInteger()).get() >= 3);
			assertThat(renewed.isHeld()).isTrue();
			assertThat(engine.heldLocks()).extracting(LockInfo::key).containsExactly("renewed");
			assertThat(extensions).as("renewals by key, as the store saw them").doesNotContainKey("failed");
		}
	}

	/** Fails when an observation of {@code name} stops, as a faulty handler of the application's may. */
	private record FailingOnStop(String name) implements ObservationHandler<Observation.Context> {

		@Override
		public void onStop(Observation.Context context) {
			if (this.name.equals(context.getName())) {
				throw new IllegalStateException("a failing observation handler");
			}
		}

		@Override
		public boolean supportsContext(Observation.Context context) {
			return true;
		}

	}

}
