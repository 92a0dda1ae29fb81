package dev.locksmith.core;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.locksmith.annotation.LockMode;
import dev.locksmith.test.inmemory.InMemoryLockBackend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Nested {@link LockService#callLocked} calls hold the keys they share with the running call again, as nested
 * {@code @DistributedLock} calls do: no second acquisition, no wait on oneself, released when the outer call
 * ends. Checked on the in-memory store, with a second lock service on it as another owner.
 */
class NestedLockedCallTests {

	/** Long enough that an inner call waiting on its own outer call would outlast the test's bound. */
	private static final LockOptions PATIENT = LockOptions.ofTtl(Duration.ofSeconds(30))
		.withWaitTime(Duration.ofMinutes(5));

	private static final Duration BOUND = Duration.ofMinutes(1);

	private final CountingBackend store = new CountingBackend(new InMemoryLockBackend());

	private final DefaultLockService locks = DefaultLockService.builder(this.store).build();

	private final DefaultLockService otherOwner = DefaultLockService.builder(this.store).build();

	@AfterEach
	void close() {
		this.locks.close();
		this.otherOwner.close();
	}

	@Test
	void aNestedCallOnTheSameKeyHoldsTheLockAgainWithoutAnotherAcquisitionUntilTheOuterCallEnds() throws Exception {
		assertTimeoutPreemptively(BOUND, () -> this.locks.callLocked("orders:1", PATIENT, () -> {
			LockHandle outer = LockContext.current().orElseThrow();
			int attempts = this.store.attempts.get();
			long inner = this.locks.callLocked("orders:1", PATIENT, () -> {
				assertThat(this.store.attempts.get()).as("acquisitions sent by the nested call").isEqualTo(attempts);
				assertThat(this.otherOwner.tryAcquire("orders:1", LockOptions.ofTtl(Duration.ofSeconds(5)))).isEmpty();
				return LockContext.current().orElseThrow().fencingToken();
			});
			assertThat(inner).as("the nested call's fencing token").isEqualTo(outer.fencingToken());
			assertThat(outer.isHeld()).as("held after the nested call ended").isTrue();
			assertThat(this.otherOwner.isLocked("orders:1")).isTrue();
			assertThat(this.otherOwner.tryAcquire("orders:1", LockOptions.ofTtl(Duration.ofSeconds(5))))
				.as("another owner while the outer call still runs")
				.isEmpty();
			return null;
		}), "a nested call waited for the lock its own outer call holds");

		assertThat(this.otherOwner.isLocked("orders:1")).as("released when the outer call ended").isFalse();
		try (LockHandle next = this.otherOwner.acquire("orders:1", LockOptions.ofTtl(Duration.ofSeconds(5)))) {
			assertThat(next.isHeld()).isTrue();
		}
	}

	@Test
	void aNestedCallForAnotherKeyAcquiresItAndReleasesItWhenItEnds() {
		this.locks.runLocked("orders:1", PATIENT, () -> {
			int attempts = this.store.attempts.get();
			this.locks.runLocked("orders:2", PATIENT, () -> assertThat(this.otherOwner.isLocked("orders:2")).isTrue());
			assertThat(this.store.attempts.get()).isEqualTo(attempts + 1);
			assertThat(this.otherOwner.isLocked("orders:2")).as("released with the nested call").isFalse();
			assertThat(this.otherOwner.isLocked("orders:1")).isTrue();
		});
		assertThat(this.otherOwner.isLocked("orders:1")).isFalse();
	}

	@Test
	void aReadNestedInAWriteOfTheSameKeyHoldsTheWriteLockAgain() {
		assertTimeoutPreemptively(BOUND, () -> this.locks.runLocked("ledger:acct-1", PATIENT, () -> {
			int attempts = this.store.attempts.get();
			this.locks.runLocked("ledger:acct-1", PATIENT.withMode(LockMode.READ), () -> {
				assertThat(this.store.attempts.get()).as("acquisitions sent by the nested call").isEqualTo(attempts);
				assertThat(this.otherOwner.isLocked("ledger:acct-1")).isTrue();
			});
			assertThat(LockContext.current().orElseThrow().isHeld()).as("the write lock after the nested read").isTrue();
		}), "a nested read waited for the write lock its own outer call holds");
		assertThat(this.otherOwner.isLocked("ledger:acct-1")).isFalse();
	}

	@Test
	void aWriteNestedInAReadOfTheSameKeyIsRefusedAtOnceWithTheMessageOfAnnotatedCalls() {
		assertTimeoutPreemptively(BOUND, () -> assertThatIllegalStateException()
			.isThrownBy(() -> this.locks.runLocked("ledger:acct-2", PATIENT.withMode(LockMode.READ),
					() -> this.locks.runLocked("ledger:acct-2", PATIENT, () -> {
					})))
			.withMessage("LockService.callLocked asks for lock 'ledger:******' as a writer while this thread holds it "
					+ "as a reader: a read lock cannot be upgraded, as two readers that both upgrade would each wait "
					+ "for the other forever; take the write lock from the start"));
		assertThat(this.otherOwner.isLocked("ledger:acct-2")).as("the read lock released").isFalse();
	}

	@Test
	void aNestedCallThroughAnotherLockServiceIsAnotherOwner() {
		this.locks.runLocked("orders:3", PATIENT, () -> assertThatExceptionOfType(LockBusyException.class)
			.isThrownBy(() -> this.otherOwner.runLocked("orders:3", LockOptions.ofTtl(Duration.ofSeconds(5)), () -> {
			})));
	}

	@Test
	void aNestedCallRunsWithItsOwnHoldAsTheCurrentLockAndTheOuterOneAfterIt() {
		assertTimeoutPreemptively(BOUND, () -> {
			this.locks.runLocked("orders:4", PATIENT, () -> {
				LockHandle outer = LockContext.current().orElseThrow();
				LockHandle inner = this.locks.callLocked("orders:4", PATIENT, () -> LockContext.current().orElseThrow());
				assertThat(inner).isNotSameAs(outer);
				assertThat(LockContext.current()).containsSame(outer);
			});
			assertThat(LockContext.current()).isEmpty();
		}, "a nested call waited for the lock its own outer call holds");
	}

	/** A store that counts the acquisitions sent to it. */
	private static final class CountingBackend extends ForwardingStore {

		private final AtomicInteger attempts = new AtomicInteger();

		CountingBackend(LockStore store) {
			super(store);
		}

		@Override
		public CompletableFuture<AcquireResult> tryAcquire(AcquireRequest request) {
			this.attempts.incrementAndGet();
			return super.tryAcquire(request);
		}

	}

}
