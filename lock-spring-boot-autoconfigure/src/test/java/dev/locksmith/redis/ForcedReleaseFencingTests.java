package dev.locksmith.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.actuate.endpoint.SecurityContext;

import dev.locksmith.actuate.ActuatorContexts;
import dev.locksmith.actuate.LocksEndpoint;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockService;
import dev.locksmith.core.LockUnavailableException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Bursts of concurrent forced releases ({@code DELETE /actuator/locks/{key}}) while two lock services do
 * the fault suite's fenced read-modify-writes: each release evicts whoever holds the lock when it runs,
 * so evicted holders overlap their successors, and the fence rejects their late writes: no update is lost.
 */
class ForcedReleaseFencingTests {

	private static final int BURSTS = 10;

	private static final int RELEASES_PER_BURST = 6;

	/** Leases far longer than the test: only a forced release ends one. */
	private static final LockOptions OPTIONS = LockOptions.ofTtl(Duration.ofSeconds(60))
		.withWaitTime(Duration.ofSeconds(10));

	@RegisterExtension
	static final ActuatorContexts contexts = new ActuatorContexts();

	@Test
	void concurrentForcedReleasesWhileHoldersDoFencedWritesLoseNoUpdate() {
		contexts.runner().run((context) -> {
			LocksEndpoint endpoint = context.getBean(LocksEndpoint.class);
			ExecutorService releasers = Executors.newFixedThreadPool(RELEASES_PER_BURST);
			long pid = ProcessHandle.current().pid();
			int released = 0;
			Map<String, Long> end;
			try (WorkerLocks otherInstance = new WorkerLocks(contexts.redis().port(), Duration.ofSeconds(2));
					FencedWorkload workload = new FencedWorkload(
							List.of(context.getBean(LockService.class), otherInstance.locks), OPTIONS)) {
				Checker checker = workload.checker();
				workload.awaitMoreWrites(10);

				checker.holdInside(pid);
				String held = await().until(() -> checker.insideOf(pid), Objects::nonNull);
				long seen = checker.seen(held);
				long since = System.nanoTime();
				assertThat(burst(endpoint, releasers, held)).as("releases that evicted the holder kept inside").isPositive();
				workload.awaitNewGrant(held, since, seen);
				long rejected = rejected(workload);
				checker.letGoOn(pid);
				await().alias("the evicted holder's late write was fenced").until(() -> rejected(workload) > rejected);

				for (int i = 1; i < BURSTS; i++) {
					released += burst(endpoint, releasers, Checker.KEYS.get(i % Checker.KEYS.size()));
					workload.awaitMoreWrites(3);
				}
				end = workload.snapshot();
			}
			finally {
				releasers.shutdownNow();
			}
			assertThat(released).as("later releases that evicted a holder").isPositive();
			assertThat(end.getOrDefault("unexpected", 0L)).as("failures other than busy or unavailable").isZero();
			assertThat(end.get("rejected")).as("late writes of evicted holders fenced").isPositive();
			assertThat(end.get("sum")).as("the counters add up to the accepted writes: no lost update")
				.isEqualTo(end.get("accepted"));
		});
	}

	/**
	 * Forces {@link #RELEASES_PER_BURST} releases of {@code key} at once; a call past the bound on
	 * administration calls in flight is refused.
	 * @return how many released a lock
	 */
	private static int burst(LocksEndpoint endpoint, ExecutorService releasers, String key) throws Exception {
		CountDownLatch start = new CountDownLatch(1);
		List<Future<Boolean>> releases = new ArrayList<>();
		for (int i = 0; i < RELEASES_PER_BURST; i++) {
			releases.add(releasers.submit(() -> {
				start.await();
				return endpoint.release(key, SecurityContext.NONE).released();
			}));
		}
		start.countDown();
		int released = 0;
		for (Future<Boolean> release : releases) {
			try {
				released += release.get() ? 1 : 0;
			}
			catch (ExecutionException ex) {
				assertThat(ex).cause()
					.isInstanceOf(LockUnavailableException.class)
					.hasMessageContaining("Too many lock administration calls in flight");
			}
		}
		return released;
	}

	private static long rejected(FencedWorkload workload) {
		return workload.snapshot().getOrDefault("rejected", 0L);
	}

}
