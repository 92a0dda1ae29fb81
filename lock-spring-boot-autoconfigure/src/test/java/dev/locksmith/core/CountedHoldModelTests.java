package dev.locksmith.core;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.jetbrains.lincheck.Lincheck;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static dev.locksmith.core.StressScale.check;
import static dev.locksmith.core.StressScale.runInParallel;

/**
 * Counted holds of a {@link DefaultLockHandle}, model-checked with Lincheck: every interleaving of the
 * threads' steps, up to the number of invocations, is tried. A failure prints the interleaving.
 * Size: {@code -Dlocksmith.stress.scale}.
 */
class CountedHoldModelTests {

	private final FakeLockBackend backend = new FakeLockBackend();

	private final DefaultLockService service = StressScale.serviceWithoutRenewal(this.backend);

	@AfterEach
	void closeService() {
		this.service.close();
	}

	@Test
	void theLockIsReleasedOnceAndOnlyAfterItsLastHoldEnds() {
		Lincheck.runConcurrentTest(StressScale.times(50), () -> {
			Holds holds = new Holds(newHandle());
			LockHandle added = holds.handle.hold();
			runInParallel(holds.handle::close, holds::useAnotherHold, () -> {
				holds.handle.close();
				added.close();
			});
			holds.releasedOnce();
		});
	}

	@Test
	void aLostLockRefusesNewHoldsAndIsStillReleasedOnce() {
		Lincheck.runConcurrentTest(StressScale.times(50), () -> {
			Holds holds = new Holds(newHandle());
			LockHandle added = holds.handle.hold();
			runInParallel(holds::useAnotherHold, added::close, () -> {
				if (holds.handle.markLost()) {
					holds.refused(holds.handle, "after markLost");
				}
			}, holds.handle::close);
			check(!holds.handle.markLost(), "marked lost twice");
			holds.refused(holds.handle, "after the last hold ended");
			holds.releasedOnce();
		});
	}

	private DefaultLockHandle newHandle() {
		return StressScale.handle(this.service, Duration.ofSeconds(30), 0L);
	}

	/** A handle under test, what its holds are doing, and what the store saw. */
	private final class Holds {

		private final DefaultLockHandle handle;

		private final int releasesBefore = CountedHoldModelTests.this.backend.releases();

		/** Holds known to be open: each is counted after hold() returns and until just before it is closed. */
		private final AtomicInteger open = new AtomicInteger();

		private final AtomicReference<String> violation = new AtomicReference<>();

		Holds(DefaultLockHandle handle) {
			this.handle = handle;
			CountedHoldModelTests.this.backend.onRelease(() -> {
				if (this.open.get() != 0) {
					this.violation.compareAndSet(null, "released while " + this.open.get() + " hold(s) were open");
				}
			});
		}

		/** Takes a hold if the lock still has one, uses it, and ends it. */
		void useAnotherHold() {
			LockHandle hold;
			try {
				hold = this.handle.hold();
			}
			catch (IllegalStateException | LockLostException ex) {
				return;
			}
			this.open.incrementAndGet();
			this.open.decrementAndGet();
			hold.close();
		}

		/** {@code handle.hold()} must throw. */
		void refused(LockHandle handle, String when) {
			try {
				handle.hold().close();
			}
			catch (IllegalStateException | LockLostException ex) {
				return;
			}
			throw new AssertionError("hold() succeeded " + when);
		}

		void releasedOnce() {
			check(this.violation.get() == null, String.valueOf(this.violation.get()));
			int releases = CountedHoldModelTests.this.backend.releases() - this.releasesBefore;
			check(releases == 1, "released " + releases + " times");
		}

	}

}
