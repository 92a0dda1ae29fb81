package dev.locksmith.adapters.lock;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;

import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockLostException;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockService;
import dev.locksmith.core.LockUnavailableException;

/**
 * A {@link Lock} view of the Locksmith lock of one key, for code written against
 * {@code java.util.concurrent.locks.Lock}.
 * <p>
 * A thread that holds the lock owns it, as with {@link java.util.concurrent.locks.ReentrantLock}: only
 * that thread may {@link #unlock()} it, and it may take it again without waiting, each time taking one
 * more {@linkplain LockHandle#hold() hold} on the same lease; the lock is released when the thread has
 * unlocked it as often as it locked it. Other threads, of this process or any other, wait as they would
 * for any busy Locksmith lock. The lease and its renewal follow the {@link LockOptions} given; their wait
 * time is replaced by the one of each call.
 * <p>
 * {@link #newCondition()} is not supported: a condition would have to be signalled across processes.
 * Acquisitions fail with {@link LockUnavailableException} when the store cannot be reached. A lease lost
 * while the lock is held shows in {@link #isHeldByCurrentThread()}, and the owner's next acquisition fails
 * with a {@link LockLostException}; {@link #unlock()} still ends the hold without an error, so that the
 * usual {@code finally} block, and Spring Integration's leader initiator, can give the lock up.
 *
 * @since 0.1.0
 */
public class LocksmithLock implements Lock {

	/** How long {@link #lock()} waits in one go before it waits again, so that no wait has to be endless. */
	private static final Duration WAIT_SLICE = Duration.ofHours(1);

	private final LockService locks;

	private final String key;

	private final LockOptions options;

	private final Map<Thread, Deque<LockHandle>> holdsByThread = new ConcurrentHashMap<>();

	/**
	 * A view of the lock of {@code key}, taken with the lease and renewal of {@code options}.
	 * @param locks the service that takes the lock
	 * @param key the lock key, not blank
	 * @param options the lease and renewal; {@link LockService#options()} gives the configured defaults
	 */
	public LocksmithLock(LockService locks, String key, LockOptions options) {
		if (key.isBlank()) {
			throw new IllegalArgumentException("key must not be blank");
		}
		this.locks = locks;
		this.key = key;
		this.options = options;
	}

	/** The key of the lock this view takes. */
	public String key() {
		return this.key;
	}

	/** Waits until the lock is taken, also when interrupted, whose flag is set again on return. */
	@Override
	public void lock() {
		lock(this.options.ttl());
	}

	/**
	 * Waits until the lock is taken under a lease of {@code ttl}, like {@link #lock()}; a thread that holds
	 * the lock already takes one more hold and leaves the lease as it is.
	 */
	public void lock(Duration ttl) {
		boolean interrupted = false;
		while (true) {
			try {
				lockInterruptibly(ttl);
				break;
			}
			catch (InterruptedException ex) {
				interrupted = true;
			}
		}
		if (interrupted) {
			Thread.currentThread().interrupt();
		}
	}

	@Override
	public void lockInterruptibly() throws InterruptedException {
		lockInterruptibly(this.options.ttl());
	}

	private void lockInterruptibly(Duration ttl) throws InterruptedException {
		boolean taken = tryLock(WAIT_SLICE, ttl);
		while (!taken) {
			taken = tryLock(WAIT_SLICE, ttl);
		}
	}

	/** Takes the lock if it is free now, or held by this thread; an interrupted thread may take it too. */
	@Override
	public boolean tryLock() {
		try {
			return acquire(Duration.ZERO, this.options.ttl());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	@Override
	public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
		return tryLock(Duration.of(Math.max(time, 0), unit.toChronoUnit()), this.options.ttl());
	}

	/**
	 * Waits up to {@code waitTime} for the lock and takes it under a lease of {@code ttl}; a thread that
	 * holds the lock already takes one more hold and leaves the lease as it is.
	 * @return whether the lock was taken
	 * @throws InterruptedException when the thread is interrupted before or while it waits
	 * @throws LockLostException when this thread holds the lock and its lease was lost
	 */
	public boolean tryLock(Duration waitTime, Duration ttl) throws InterruptedException {
		if (Thread.interrupted()) {
			throw new InterruptedException();
		}
		return acquire(waitTime, ttl);
	}

	private boolean acquire(Duration waitTime, Duration ttl) throws InterruptedException {
		Deque<LockHandle> holds = this.holdsByThread.get(Thread.currentThread());
		if (holds != null) {
			LockHandle held = holds.peek();
			if (!held.isHeld()) {
				throw new LockLostException(held);
			}
			holds.push(held.hold());
			return true;
		}
		Optional<LockHandle> handle = this.locks.tryAcquire(this.key,
				this.options.withTtl(ttl).withWaitTime(waitTime));
		handle.ifPresent((taken) -> {
			Deque<LockHandle> first = new ArrayDeque<>();
			first.push(taken);
			this.holdsByThread.put(Thread.currentThread(), first);
		});
		return handle.isPresent();
	}

	/**
	 * Ends one hold of this thread on the lock, and releases the lock with the last, also when its lease
	 * was lost.
	 * @throws IllegalMonitorStateException when this thread does not hold the lock
	 */
	@Override
	public void unlock() {
		Deque<LockHandle> holds = ownHolds();
		LockHandle hold = holds.pop();
		if (holds.isEmpty()) {
			this.holdsByThread.remove(Thread.currentThread());
		}
		hold.close();
	}

	/**
	 * Extends the lease of the lock this thread holds to {@code ttl} from now.
	 * @return whether the lease was extended: false when it was lost
	 * @throws IllegalMonitorStateException when this thread does not hold the lock
	 */
	public boolean extend(Duration ttl) {
		return ownHolds().peek().extend(ttl);
	}

	private Deque<LockHandle> ownHolds() {
		Deque<LockHandle> holds = this.holdsByThread.get(Thread.currentThread());
		if (holds == null) {
			throw new IllegalMonitorStateException(
					"Thread '" + Thread.currentThread().getName() + "' does not hold this lock");
		}
		return holds;
	}

	/** Whether the current thread holds this lock, and its lease was not lost. */
	public boolean isHeldByCurrentThread() {
		Deque<LockHandle> holds = this.holdsByThread.get(Thread.currentThread());
		return holds != null && holds.peek().isHeld();
	}

	/** Whether some thread of this process holds this lock through this view, lost or not. */
	public boolean isHeldLocally() {
		return !this.holdsByThread.isEmpty();
	}

	/**
	 * Not supported.
	 * @throws UnsupportedOperationException always: a condition would have to be signalled across processes
	 */
	@Override
	public Condition newCondition() {
		throw new UnsupportedOperationException(
				"A Locksmith lock has no conditions: they would have to be signalled across processes");
	}

	@Override
	public String toString() {
		return "LocksmithLock[heldLocally=" + isHeldLocally() + "]";
	}

}
