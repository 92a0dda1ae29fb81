package dev.locksmith.core;

import java.time.Duration;

import org.jetbrains.lincheck.Lincheck;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static dev.locksmith.core.StressScale.check;
import static dev.locksmith.core.StressScale.runInParallel;

/**
 * Two leases recorded at once on one {@link DefaultLockHandle} (a renewal answered on the renewal thread,
 * a caller's {@code extend()} on its own), model-checked with Lincheck: the renewal due time must be that
 * of the lease kept by {@link Lease#later}, so it always falls before that lease ends.
 * <p>
 * Lincheck's clock stands still (every {@code System.nanoTime()} reads the same instant, {@code now}), so
 * the requests are placed around it: the grant at {@code now - 2} with the longest lease, a 30 s renewal
 * sent at {@code now - 1} (crossing the grant, so the shorter renewal counts), and a 3 s extension sent
 * at {@code now}, after the renewal's answer, so it was applied last and counts.
 */
class LeaseRecordModelTests {

	private final DefaultLockService service = StressScale.serviceWithoutRenewal(new FakeLockBackend());

	@AfterEach
	void closeService() {
		this.service.close();
	}

	/**
	 * A renewal and a shorter extension recorded together: the renewal due time belongs to the lease kept,
	 * never to the other one. It failed while the due time was written after the lease was chosen: the
	 * renewal thread could write its own due time (10 s) over the extension's, while the lease kept ended
	 * after 3 s.
	 */
	@Test
	void theRenewalDueTimeNeverOutlivesTheLeaseKeptWhenARenewalAndAnExtendAreRecordedTogether() {
		Lincheck.runConcurrentTest(StressScale.times(50), () -> {
			long now = System.nanoTime();
			DefaultLockHandle handle = StressScale.handle(this.service, Duration.ofSeconds(120), now - 2);
			runInParallel(() -> handle.leaseStarted(now - 1, Duration.ofSeconds(30)),
					() -> handle.leaseStarted(now, Duration.ofSeconds(3)));
			check(handle.leaseDeadlineNanos() == now + Duration.ofMillis(3000 - 10).toNanos(),
					"the 3 s extension, sent last, is the lease kept");
			long dueAfterDeadline = handle.renewalDueNanos() - handle.leaseDeadlineNanos();
			check(dueAfterDeadline < 0, "renewal due " + Duration.ofNanos(dueAfterDeadline)
					+ " after the lease kept ends: it would be renewed too late, and lost");
		});
	}

	@Test
	void theRenewalDueTimeFollowsTheLeaseKeptWhenLeasesAreRecordedOneAfterTheOther() {
		Lincheck.runConcurrentTest(StressScale.times(25), () -> {
			long now = System.nanoTime();
			DefaultLockHandle handle = StressScale.handle(this.service, Duration.ofSeconds(120), now - 2);
			handle.leaseStarted(now - 1, Duration.ofSeconds(30));
			handle.leaseStarted(now, Duration.ofSeconds(3));
			check(handle.renewalDueNanos() == now + Duration.ofSeconds(1).toNanos(), "due a third into the 3 s lease");
		});
	}

}
