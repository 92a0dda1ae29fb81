package dev.locksmith.core;

import java.time.Duration;
import java.util.List;

import io.micrometer.observation.Observation;
import java.util.Map;

/**
 * Sizes of the in-process concurrency tests: the default run is small enough for every build, and
 * {@code -Dlocksmith.stress.scale=N} multiplies every size by N for a longer run.
 */
final class StressScale {

	/** System property that multiplies the size of every in-process concurrency test. */
	static final String PROPERTY = "locksmith.stress.scale";

	private StressScale() {
	}

	/** {@code base} times the scale asked for. */
	static int times(int base) {
		return Math.multiplyExact(base, Math.max(1, Integer.getInteger(PROPERTY, 1)));
	}

	/** An engine on {@code backend} that does not renew: built outside Lincheck, as its builder looks up the host name. */
	static DefaultLockService serviceWithoutRenewal(LockStore backend) {
		return DefaultLockService.builder(backend).instanceId("model").renewal(false).build();
	}

	/** A handle on key {@code k} of {@code service}, granted for a request sent at {@code requestedAtNanos}. */
	static DefaultLockHandle handle(DefaultLockService service, Duration ttl, long requestedAtNanos) {
		return new DefaultLockHandle(service.leases(), List.of("k"), LockOwner.exclusive("owner"), Map.of("k", 1L), LockOptions.ofTtl(ttl),
				Duration.ofMillis(10), requestedAtNanos, ttl, Observation.NOOP);
	}

	/** Starts {@code actions} on threads of their own and waits for them all, inside a Lincheck test. */
	static void runInParallel(Runnable... actions) {
		Thread[] threads = new Thread[actions.length];
		for (int i = 0; i < actions.length; i++) {
			threads[i] = new Thread(actions[i]);
			threads[i].start();
		}
		for (Thread thread : threads) {
			try {
				thread.join();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException(ex);
			}
		}
	}

	/** Fails with {@code message} unless {@code condition}: AssertJ's assertions cannot be used inside Lincheck. */
	static void check(boolean condition, String message) {
		if (!condition) {
			throw new AssertionError(message);
		}
	}

}
