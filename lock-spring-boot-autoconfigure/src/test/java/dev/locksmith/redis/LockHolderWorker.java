package dev.locksmith.redis;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;


import dev.locksmith.core.DefaultLockService;
import dev.locksmith.core.LockEventListener;
import dev.locksmith.core.LockContext;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockLostException;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LostLeaseRecorder;

/**
 * A separate JVM that holds a renewed lock while it works, for {@link LeaseRenewalProcessTests}.
 * It reports on standard output, each line starting with {@code WORKER}. Arguments: Redis port, lock
 * key, lease in ms, then either {@code work <renewals>} (works until the lease was renewed that
 * often, then releases after a line on standard input) or {@code fenced-write} (waits for a line on
 * standard input, then writes through {@link RedisFencedValues}).
 */
public final class LockHolderWorker {

	static final String FENCED_RESOURCE = "test:resource";

	private LockHolderWorker() {
	}

	public static void main(String[] args) throws Exception {
		int port = Integer.parseInt(args[0]);
		String key = args[1];
		Duration lease = Duration.ofMillis(Long.parseLong(args[2]));
		try (WorkerLocks worker = new WorkerLocks(port, Duration.ofSeconds(1))) {
			CountDownLatch renewals = new CountDownLatch(args[3].equals("work") ? Integer.parseInt(args[4]) : 0);
			LostLeaseRecorder.listen(worker.locks, new LockEventListener() {

				@Override
				public void leasesRenewed(int count) {
					for (int i = 0; i < count; i++) {
						renewals.countDown();
					}
				}

			});
			RedisFencedValues resource = new RedisFencedValues(worker.connections);
			holdLock(worker.locks, key, lease, args[3], renewals, resource);
		}
		System.exit(0);
	}

	private static void holdLock(DefaultLockService locks, String key, Duration lease, String mode,
			CountDownLatch renewals, RedisFencedValues resource) {
		try {
			locks.runLocked(key, LockOptions.ofTtl(lease), () -> {
				LockHandle handle = LockContext.current().orElseThrow();
				report("ACQUIRED " + handle.fencingToken());
				if (mode.equals("work")) {
					awaitRenewals(renewals);
					report("WORKED");
					awaitInput();
				}
				else {
					awaitInput();
					report("WRITE " + (resource.write(FENCED_RESOURCE, "worker", handle.fencingToken()) ? "applied"
							: "rejected"));
					report("HELD " + handle.isHeld());
				}
			});
			report("RELEASED");
		}
		catch (LockLostException ex) {
			report("LOST " + ex.getMessage());
		}
	}

	private static void report(String line) {
		System.out.println("WORKER " + line);
		System.out.flush();
	}

	/** The work: lasts until the watchdog has renewed the lease as often as asked. */
	private static void awaitRenewals(CountDownLatch renewals) {
		try {
			if (!renewals.await(1, TimeUnit.MINUTES)) {
				throw new IllegalStateException("The lease was not renewed often enough within a minute");
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	private static void awaitInput() {
		try {
			new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
		}
		catch (java.io.IOException ex) {
			throw new java.io.UncheckedIOException(ex);
		}
	}

}
