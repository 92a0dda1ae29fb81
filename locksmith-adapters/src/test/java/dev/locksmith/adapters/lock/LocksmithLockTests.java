package dev.locksmith.adapters.lock;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.Lock;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.locksmith.adapters.RedisLockServices;
import dev.locksmith.core.LockLostException;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockService;
import dev.locksmith.testing.RedisServerExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/** The {@link java.util.concurrent.locks.Lock} contract of a Locksmith lock, on a real Redis. */
class LocksmithLockTests {

	@RegisterExtension
	static final RedisServerExtension redisServer = new RedisServerExtension();

	private static final LockOptions RENEWED = LockOptions.ofTtl(Duration.ofSeconds(30));

	private final ExecutorService elsewhere = Executors.newCachedThreadPool();

	private RedisLockServices services;

	private LockService locks;

	private LocksmithLock lock;

	@BeforeEach
	void connect() {
		this.services = new RedisLockServices(redisServer.server());
		this.locks = this.services.newService();
		this.lock = new LocksmithLock(this.locks, "orders:1", RENEWED);
	}

	@AfterEach
	void close() throws Exception {
		this.elsewhere.shutdownNow();
		this.services.close();
	}

	@Test
	void tryLockTakesAFreeLockAndExcludesOtherThreadsUntilUnlocked() throws Exception {
		assertThat(this.lock.tryLock()).isTrue();
		assertThat(this.lock.isHeldByCurrentThread()).isTrue();
		assertThat(this.locks.isLocked("orders:1")).isTrue();
		assertThat(tryLockAndUnlockElsewhere(this.lock)).isFalse();

		this.lock.unlock();

		assertThat(this.locks.isLocked("orders:1")).isFalse();
		assertThat(tryLockAndUnlockElsewhere(this.lock)).isTrue();
	}

	@Test
	void theOwnerTakesTheLockAgainAndItStaysTakenUntilUnlockedAsOftenAsLocked() throws Exception {
		this.lock.lock();
		assertThat(this.lock.tryLock()).isTrue();
		assertThat(this.lock.tryLock(1, TimeUnit.MILLISECONDS)).isTrue();

		this.lock.unlock();
		this.lock.unlock();
		assertThat(this.locks.isLocked("orders:1")).isTrue();
		assertThat(tryLockAndUnlockElsewhere(this.lock)).isFalse();

		this.lock.unlock();
		assertThat(this.locks.isLocked("orders:1")).isFalse();
		assertThat(this.lock.isHeldLocally()).isFalse();
	}

	@Test
	void unlockByAThreadThatDoesNotHoldTheLockIsRejectedAndLeavesItHeld() throws Exception {
		this.lock.lock();

		Future<?> unlock = this.elsewhere.submit(this.lock::unlock);

		assertThat(unlock).failsWithin(Duration.ofSeconds(5))
			.withThrowableOfType(java.util.concurrent.ExecutionException.class)
			.withCauseInstanceOf(IllegalMonitorStateException.class);
		assertThat(this.locks.isLocked("orders:1")).isTrue();
		assertThat(this.lock.isHeldByCurrentThread()).isTrue();
		this.lock.unlock();
	}

	@Test
	void unlockWithoutLockingIsRejected() {
		assertThatExceptionOfType(IllegalMonitorStateException.class).isThrownBy(this.lock::unlock);
	}

	@Test
	void twoViewsOfOneKeyInTwoProcessesExcludeEachOther() throws Exception {
		LocksmithLock other = new LocksmithLock(this.services.newService(), "orders:1", RENEWED);
		this.lock.lock();

		assertThat(other.tryLock()).isFalse();
		this.lock.unlock();
		assertThat(other.tryLock()).isTrue();
		other.unlock();
	}

	@Test
	void timedTryLockTakesTheLockWhenTheOwnerUnlocksWithinTheWait() throws Exception {
		CountDownLatch waiting = new CountDownLatch(1);
		Future<Boolean> owner = holdElsewhereUntil(waiting);

		waiting.countDown();

		assertThat(this.lock.tryLock(10, TimeUnit.SECONDS)).isTrue();
		assertThat(owner.get(5, TimeUnit.SECONDS)).isTrue();
		this.lock.unlock();
	}

	@Test
	void timedTryLockGivesUpWhenTheLockStaysBusyForTheWholeWait() throws Exception {
		CountDownLatch done = new CountDownLatch(1);
		holdElsewhereUntil(done);
		long start = System.nanoTime();

		assertThat(this.lock.tryLock(300, TimeUnit.MILLISECONDS)).isFalse();

		assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(300));
		assertThat(this.lock.isHeldLocally()).isTrue();
		done.countDown();
	}

	@Test
	void lockWaitsUntilTheOwnerUnlocks() throws Exception {
		CountDownLatch release = new CountDownLatch(1);
		Future<Boolean> owner = holdElsewhereUntil(release);
		Future<?> waiter = this.elsewhere.submit(() -> {
			this.lock.lock();
			this.lock.unlock();
		});
		assertThat(waiter).isNotDone();

		release.countDown();

		assertThat(owner.get(5, TimeUnit.SECONDS)).isTrue();
		assertThat(waiter).succeedsWithin(Duration.ofSeconds(10));
	}

	@Test
	void lockInterruptiblyEndsWhenTheWaitingThreadIsInterrupted() throws Exception {
		this.lock.lock();
		AtomicBoolean interrupted = new AtomicBoolean();
		Thread waiter = new Thread(() -> {
			try {
				this.lock.lockInterruptibly();
			}
			catch (InterruptedException ex) {
				interrupted.set(true);
			}
		});
		waiter.start();
		await().until(() -> waiter.getState() != Thread.State.RUNNABLE);

		waiter.interrupt();
		waiter.join(5_000);

		assertThat(interrupted).isTrue();
		this.lock.unlock();
	}

	@Test
	void lockKeepsWaitingWhenInterruptedAndRestoresTheFlagOnceTaken() throws Exception {
		this.lock.lock();
		AtomicBoolean flagSet = new AtomicBoolean();
		Thread waiter = new Thread(() -> {
			this.lock.lock();
			flagSet.set(Thread.currentThread().isInterrupted());
			this.lock.unlock();
		});
		waiter.start();
		await().until(() -> waiter.getState() != Thread.State.RUNNABLE);
		waiter.interrupt();
		assertThat(waiter.isAlive()).isTrue();

		this.lock.unlock();
		waiter.join(10_000);

		assertThat(waiter.isAlive()).isFalse();
		assertThat(flagSet).isTrue();
	}

	@Test
	void theOwnerOfALostLeaseCannotTakeTheLockAgainButUnlocksItQuietly() {
		LocksmithLock shortLived = new LocksmithLock(this.locks, "orders:2",
				LockOptions.ofTtl(Duration.ofMillis(200)).withRenew(false));
		shortLived.lock();
		await().until(() -> !shortLived.isHeldByCurrentThread() && this.services.leaseMillis("orders:2") < 0);

		assertThatExceptionOfType(LockLostException.class).isThrownBy(shortLived::tryLock);
		shortLived.unlock();

		assertThat(shortLived.isHeldLocally()).isFalse();
		assertThat(shortLived.tryLock()).isTrue();
		shortLived.unlock();
	}

	@Test
	void extendSetsTheLeaseOfTheLockThisThreadHolds() {
		LocksmithLock shortLived = new LocksmithLock(this.locks, "orders:3",
				LockOptions.ofTtl(Duration.ofSeconds(5)).withRenew(false));
		shortLived.lock();

		assertThat(shortLived.extend(Duration.ofMinutes(5))).isTrue();

		assertThat(this.services.leaseMillis("orders:3")).isGreaterThan(Duration.ofMinutes(4).toMillis());
		shortLived.unlock();
	}

	@Test
	void newConditionIsUnsupported() {
		assertThatExceptionOfType(UnsupportedOperationException.class).isThrownBy(this.lock::newCondition);
	}

	/** Takes the lock on another thread, and unlocks it there once {@code release} opens. */
	private Future<Boolean> holdElsewhereUntil(CountDownLatch release) throws Exception {
		CountDownLatch taken = new CountDownLatch(1);
		Future<Boolean> owner = this.elsewhere.submit(() -> {
			this.lock.lock();
			taken.countDown();
			release.await();
			this.lock.unlock();
			return true;
		});
		assertThat(taken.await(10, TimeUnit.SECONDS)).isTrue();
		return owner;
	}

	private boolean tryLockAndUnlockElsewhere(Lock lock) throws Exception {
		return this.elsewhere.submit(() -> {
			boolean taken = lock.tryLock();
			if (taken) {
				lock.unlock();
			}
			return taken;
		}).get(10, TimeUnit.SECONDS);
	}

}
