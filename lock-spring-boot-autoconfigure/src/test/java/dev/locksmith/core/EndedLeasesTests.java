package dev.locksmith.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
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

}
