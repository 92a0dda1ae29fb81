package dev.locksmith.core;

import java.lang.reflect.Field;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.jetbrains.lincheck.Lincheck;
import org.junit.jupiter.api.Test;

import dev.locksmith.core.Waiters.Waiter;

import static dev.locksmith.core.StressScale.check;
import static dev.locksmith.core.StressScale.runInParallel;

/**
 * {@link Waiters} model-checked with Lincheck: hand-overs delivered while waiters join, sleep and leave.
 * A waiter sleeps with no deadline it could reach (under Lincheck every {@code System.nanoTime()} reads
 * the same, so a re-check due "now" is due at once). Limit: Lincheck may let a timed wait expire, so a
 * lost wake-up is not reliably seen as a hang; a mutation that signals before setting {@code woken} was
 * not caught. What is checked for certain: no waiter or key is left behind, a waiter that left is not
 * signalled, and every waiter returns.
 */
class WaitersModelTests {

	private static final long NO_DEADLINE = TimeUnit.DAYS.toNanos(365);

	@Test
	void aHandOverToAJoinedWaiterWakesItWhileOthersOfTheKeyComeAndGo() {
		Lincheck.runConcurrentTest(StressScale.times(50), () -> {
			Waiters waiters = new Waiters();
			CountDownLatch queued = new CountDownLatch(1);
			runInParallel(() -> {
				Waiter claimant = waiters.join(List.of("k"), "claimant");
				// Only now may the store queue it, and so hand it the lock.
				queued.countDown();
				awaitWake(claimant);
				waiters.leave(claimant);
			}, () -> {
				awaitQuietly(queued);
				waiters.handedOver("k", "claimant", Duration.ofSeconds(30), 0);
			}, () -> {
				Waiter other = waiters.join(List.of("k", "j"), "other");
				waiters.leave(other);
			});
			nobodyLeft(waiters);
		});
	}

	@Test
	void theOtherWaitersOfAHandedOverKeyLookAgainWhenTheClaimLeaseEnds() {
		Lincheck.runConcurrentTest(StressScale.times(50), () -> {
			Waiters waiters = new Waiters();
			CountDownLatch queued = new CountDownLatch(2);
			runInParallel(() -> {
				Waiter other = waiters.join(List.of("k"), "other");
				queued.countDown();
				// The claim lease is zero: the re-check it asks for is due at once.
				awaitWake(other);
				waiters.leave(other);
			}, () -> {
				Waiter claimant = waiters.join(List.of("j", "k"), "claimant");
				queued.countDown();
				awaitWake(claimant);
				waiters.leave(claimant);
			}, () -> {
				awaitQuietly(queued);
				waiters.handedOver("k", "claimant", Duration.ZERO, 0);
			});
			nobodyLeft(waiters);
		});
	}

	@Test
	void aWaiterThatLeftIsNotWokenAndLeavesNothingBehind() {
		Lincheck.runConcurrentTest(StressScale.times(50), () -> {
			Waiters waiters = new Waiters();
			CountDownLatch left = new CountDownLatch(1);
			Waiter[] gone = new Waiter[1];
			runInParallel(() -> {
				gone[0] = waiters.join(List.of("k"), "gone");
				waiters.leave(gone[0]);
				left.countDown();
			}, () -> {
				awaitQuietly(left);
				waiters.handedOver("k", "gone", Duration.ofSeconds(30), 0);
			}, () -> {
				Waiter stays = waiters.join(List.of("k"), "stays");
				waiters.leave(stays);
			});
			check(permits(gone[0]) == 0, "a waiter that left was signalled");
			nobodyLeft(waiters);
		});
	}

	@Test
	void aHandOverToldTwiceConcurrentlyIsHandedOnceWhileOthersComeAndGo() {
		Lincheck.runConcurrentTest(StressScale.times(50), () -> {
			Waiters waiters = new Waiters();
			CountDownLatch queued = new CountDownLatch(1);
			CountDownLatch told = new CountDownLatch(2);
			Waiters.HandedLock[] taken = new Waiters.HandedLock[2];
			runInParallel(() -> {
				Waiter claimant = waiters.join(List.of("k"), "claimant");
				queued.countDown();
				awaitWake(claimant);
				taken[0] = claimant.takeHandedLock();
				awaitQuietly(told);
				taken[1] = claimant.takeHandedLock();
				waiters.leave(claimant);
			}, () -> {
				awaitQuietly(queued);
				waiters.handedOver("k", "claimant", Duration.ofSeconds(30), 7);
				told.countDown();
			}, () -> {
				awaitQuietly(queued);
				waiters.handedOver("k", "claimant", Duration.ofSeconds(30), 7);
				told.countDown();
			}, () -> {
				Waiter other = waiters.join(List.of("k", "j"), "other");
				waiters.handedOver("j", "nobody", Duration.ZERO, 0);
				waiters.leave(other);
				Waiter again = waiters.join(List.of("j", "k"), "again");
				waiters.leave(again);
			});
			int handed = ((taken[0] != null) ? 1 : 0) + ((taken[1] != null) ? 1 : 0);
			check(handed == 1, "hand-over taken " + handed + " times");
			nobodyLeft(waiters);
		});
	}

	@Test
	void concurrentJoinsAndLeavesOnSharedKeysLeaveNothingBehind() {
		Lincheck.runConcurrentTest(StressScale.times(50), () -> {
			Waiters waiters = new Waiters();
			runInParallel(() -> {
				Waiter a = waiters.join(List.of("k", "j"), "a");
				waiters.leave(a);
			}, () -> {
				Waiter b = waiters.join(List.of("j", "k"), "b");
				waiters.leave(b);
			}, () -> {
				Waiter c = waiters.join(List.of("k", "k"), "c");
				waiters.handedOver("k", "nobody", Duration.ZERO, 0);
				waiters.leave(c);
			});
			nobodyLeft(waiters);
		});
	}

	private static void awaitWake(Waiter waiter) {
		try {
			waiter.await(NO_DEADLINE);
		}
		catch (InterruptedException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static void awaitQuietly(CountDownLatch latch) {
		try {
			latch.await();
		}
		catch (InterruptedException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/** Once every waiter left, the registry keeps no waiter and no key. */
	private static void nobodyLeft(Waiters waiters) {
		Map<?, ?> byOwnerToken = field(waiters, "byOwnerToken");
		Map<?, ?> byKey = field(waiters, "byKey");
		check(byOwnerToken.isEmpty(), "waiters left behind: " + byOwnerToken.keySet());
		check(byKey.isEmpty(), "keys left behind: " + byKey.keySet());
	}

	private static int permits(Waiter waiter) {
		java.util.concurrent.Semaphore signal = field(waiter, "signal");
		return signal.availablePermits();
	}

	@SuppressWarnings("unchecked")
	private static <T> T field(Object target, String name) {
		try {
			Field field = target.getClass().getDeclaredField(name);
			field.setAccessible(true);
			return (T) field.get(target);
		}
		catch (ReflectiveOperationException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
