package dev.locksmith.core;

import java.lang.reflect.UndeclaredThrowableException;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * Programmatic entry point to distributed locks: acquire, run code under a lock, ask whether a lock
 * is held, list the locks this process holds.
 *
 * @since 0.1.0
 */
public interface LockService {

	/**
	 * Tries to acquire the lock, waiting up to {@link LockOptions#waitTime()} while it is busy.
	 * @param key the lock key, not blank
	 * @param options lease, wait and renewal settings
	 * @return the handle, or empty when the lock stayed busy for the whole wait
	 * @throws LockUnavailableException when the backend cannot be reached
	 * @throws InterruptedException when the waiting thread is interrupted
	 */
	Optional<LockHandle> tryAcquire(String key, LockOptions options) throws InterruptedException;

	/**
	 * Tries to acquire the locks of all {@code keys} together, all or nothing, in one round trip,
	 * waiting up to {@link LockOptions#waitTime()} while any is busy. Keys are locked in one canonical
	 * order whatever the order given, so callers with overlapping key sets never deadlock.
	 * @param keys the lock keys, none blank; duplicates count once
	 * @param options lease, wait and renewal settings
	 * @return one handle for all the locks, or empty when some lock stayed busy for the whole wait
	 * @throws LockUnavailableException when the backend cannot be reached
	 * @throws InterruptedException when the waiting thread is interrupted
	 */
	Optional<LockHandle> tryAcquireAll(Collection<String> keys, LockOptions options) throws InterruptedException;

	/**
	 * Acquires the lock like {@link #tryAcquire} but fails when it stays busy.
	 * @throws LockBusyException when the lock stayed busy for the whole wait
	 */
	default LockHandle acquire(String key, LockOptions options) throws InterruptedException {
		return acquireAll(List.of(key), options);
	}

	/**
	 * Acquires the locks of all {@code keys} like {@link #tryAcquireAll} but fails when some stays busy,
	 * with the store's hint for when to retry where the service knows it.
	 * @throws LockBusyException when some lock stayed busy for the whole wait
	 * @since 0.1.0
	 */
	default LockHandle acquireAll(Collection<String> keys, LockOptions options) throws InterruptedException {
		long start = System.nanoTime();
		return tryAcquireAll(keys, options).orElseThrow(() -> new LockBusyException(options.name(),
				String.join(",", keys), Duration.ofNanos(System.nanoTime() - start), Duration.ZERO));
	}

	/**
	 * Runs {@code action} while holding the lock and returns its result. Checked exceptions of the
	 * action are rethrown wrapped in an {@link UndeclaredThrowableException}; an interrupt while
	 * waiting ends in a {@link DistributedLockException} with the thread's interrupt flag set.
	 * @throws LockBusyException when the lock stayed busy for the whole wait
	 * @throws LockLostException when the lease was lost while the action ran
	 */
	default <T> T callLocked(String key, LockOptions options, Callable<T> action) {
		return LockedCalls.callLocked(this, key, options, action);
	}

	/** Runs {@code action} while holding the lock, like {@link #callLocked}. */
	default void runLocked(String key, LockOptions options, Runnable action) {
		callLocked(key, options, () -> {
			action.run();
			return null;
		});
	}

	/**
	 * Whether any owner in the cluster holds the lock of {@code key} right now, asked of the store. A
	 * lock kept for its minimum hold after its release, or handed to a waiter, counts as held.
	 * @throws LockUnavailableException when the backend cannot be reached
	 */
	boolean isLocked(String key);

	/**
	 * Locks held by this process right now: neither released, lost, nor expired. A lock kept only for
	 * its minimum hold after its release is not listed.
	 */
	List<LockInfo> heldLocks();

	/**
	 * The options this service's configuration gives when none are chosen: with Spring Boot,
	 * {@code locksmith.default-ttl} and {@code locksmith.default-wait-time}, renewed, released at once.
	 * The same defaults as an empty {@code ttl} or {@code waitTime} of {@code @DistributedLock}.
	 */
	LockOptions options();

}
