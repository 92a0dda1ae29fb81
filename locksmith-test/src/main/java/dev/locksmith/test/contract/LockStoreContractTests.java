package dev.locksmith.test.contract;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.locksmith.annotation.LockMode;
import dev.locksmith.core.DefaultLockService;
import dev.locksmith.core.LockStore;
import dev.locksmith.core.LockBusyException;
import dev.locksmith.core.LockContext;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockInfo;
import dev.locksmith.core.LockLostException;
import dev.locksmith.core.LockOptions;

/**
 * Lock semantics that every {@link LockStore} must give the engine, to run against a store of your
 * own: extend this class and return, from {@link #newServiceBuilder()}, a lock service builder on a
 * fresh connection to one shared store, for example
 * {@code DefaultLockService.builder(new MyLockStore(connect()))}. Every test builds several services,
 * as separate processes would, and closes them; empty the store before each test. Locksmith runs it
 * on a standalone Redis of each tested version, a Redis Cluster, Redlock and the in-memory store.
 * Needs JUnit Jupiter and Awaitility on the test class path.
 *
 * @since 0.1.0
 */
public abstract class LockStoreContractTests {

	/** A lease that no test outlasts. */
	protected static final Duration LONG = Duration.ofSeconds(30);

	private static final LockOptions READ = LockOptions.ofTtl(LONG).withMode(LockMode.READ);

	private final List<DefaultLockService> services = new CopyOnWriteArrayList<>();

	private final ExecutorService threads = Executors.newCachedThreadPool();

	/** The service that most tests lock with; {@link #newService()} makes the others. */
	protected DefaultLockService locks;

	/** A new engine on a fresh connection to the shared store, as a separate process would have. */
	protected abstract DefaultLockService.Builder newServiceBuilder();

	/** Whether the store queues waiters, so that they are served in arrival order, in one process or several. */
	protected boolean servesWaitersInArrivalOrder() {
		return true;
	}

	/** Whether the store grants read locks and permits; one that does not must refuse them naming itself. */
	protected boolean grantsShares() {
		return true;
	}

	/** A new service from {@link #newServiceBuilder()}, closed after the test. */
	protected final DefaultLockService newService() {
		return newService(newServiceBuilder());
	}

	/** A service built by {@code builder}, closed after the test. */
	protected final DefaultLockService newService(DefaultLockService.Builder builder) {
		DefaultLockService service = builder.build();
		this.services.add(service);
		return service;
	}

	@BeforeEach
	void createService() {
		this.locks = newService();
	}

	@AfterEach
	void closeServices() {
		this.threads.shutdownNow();
		this.services.forEach(DefaultLockService::close);
	}

	@Test
	void aGrantedLockCannotBeTakenByAnotherOwner() throws Exception {
		LockHandle first = this.locks.tryAcquire("orders:1", LockOptions.ofTtl(LONG)).orElseThrow();

		assertThat(first.isHeld()).isTrue();
		assertThat(newService().tryAcquire("orders:1", LockOptions.ofTtl(LONG))).isEmpty();
		assertThat(this.locks.tryAcquire("orders:1", LockOptions.ofTtl(LONG))).as("not reentrant").isEmpty();
	}

	@Test
	void releaseLetsTheNextOwnerIn() throws Exception {
		LockHandle first = this.locks.tryAcquire("orders:1", LockOptions.ofTtl(LONG)).orElseThrow();
		first.close();
		first.close();

		assertThat(first.isHeld()).isFalse();
		assertThat(newService().tryAcquire("orders:1", LockOptions.ofTtl(LONG))).isPresent();
	}

	@Test
	void differentKeysDoNotExcludeEachOther() throws Exception {
		assertThat(this.locks.tryAcquire("orders:1", LockOptions.ofTtl(LONG))).isPresent();
		assertThat(this.locks.tryAcquire("orders:2", LockOptions.ofTtl(LONG))).isPresent();
	}

	@Test
	void aLockWhoseHolderNeverReleasesIsFreeAfterItsTtl() throws Exception {
		LockOptions shortLease = LockOptions.ofTtl(Duration.ofSeconds(1)).withRenew(false);
		DefaultLockService other = newService();
		LockHandle abandoned = this.locks.tryAcquire("job", shortLease).orElseThrow();

		assertThat(other.tryAcquire("job", shortLease)).isEmpty();
		await().atMost(Duration.ofSeconds(5)).until(() -> other.tryAcquire("job", shortLease).isPresent());
		assertThat(abandoned.isHeld()).isFalse();
	}

	@Test
	void releaseAfterExpiryDoesNotDeleteTheNewOwnersLock() throws Exception {
		LockOptions shortLease = LockOptions.ofTtl(Duration.ofMillis(200)).withRenew(false);
		LockHandle stale = this.locks.tryAcquire("job", shortLease).orElseThrow();
		DefaultLockService other = newService();
		LockHandle next = await().atMost(Duration.ofSeconds(5))
			.until(() -> other.tryAcquire("job", LockOptions.ofTtl(LONG)), Optional::isPresent)
			.orElseThrow();

		assertThat(stale.isHeld()).isFalse();
		assertThat(stale.extend(LONG)).as("a stale owner cannot extend").isFalse();
		stale.close();

		assertThat(next.isHeld()).isTrue();
		assertThat(newService().tryAcquire("job", LockOptions.ofTtl(LONG))).as("new owner's lock intact").isEmpty();
	}

	@Test
	void fencingTokensStrictlyIncreaseAcrossHolders() throws Exception {
		DefaultLockService other = newService();
		long previous = 0;
		for (int i = 0; i < 20; i++) {
			DefaultLockService holder = (i % 2 == 0) ? this.locks : other;
			try (LockHandle handle = holder.tryAcquire("account:7", LockOptions.ofTtl(LONG)).orElseThrow()) {
				assertThat(handle.fencingToken()).isGreaterThan(previous);
				previous = handle.fencingToken();
			}
		}
	}

	@Test
	void aLockOfSeveralKeysHasAFencingTokenPerKeyAndRefusesASingleOne() throws Exception {
		LockHandle both = this.locks.tryAcquireAll(List.of("account:b", "account:a"), LockOptions.ofTtl(LONG))
			.orElseThrow();

		assertThat(both.fencingTokens()).containsOnlyKeys("account:a", "account:b");
		assertThat(both.fencingToken("account:a")).isEqualTo(both.fencingTokens().get("account:a"));
		assertThat(this.locks.heldLocks()).allSatisfy(
				(lock) -> assertThat(lock.fencingToken()).isEqualTo(both.fencingToken(lock.key())));
		assertThatIllegalStateException().isThrownBy(both::fencingToken)
			.withMessageContaining("'account:******', 'account:******'")
			.withMessageContaining("fencingToken(key)");
		assertThatIllegalArgumentException().isThrownBy(() -> both.fencingToken("account:c"))
			.withMessageContaining("does not hold key 'account:******'");
		both.close();
		try (LockHandle a = newService().tryAcquire("account:a", LockOptions.ofTtl(LONG)).orElseThrow()) {
			assertThat(a.fencingToken()).isEqualTo(a.fencingToken("account:a"))
				.isGreaterThan(both.fencingToken("account:a"));
		}
	}

	@Test
	void extendingByLessThanTheTtlBringsTheNextRenewalForward() throws Exception {
		DefaultLockService other = newService();
		LockHandle handle = this.locks.tryAcquire("job", LockOptions.ofTtl(LONG)).orElseThrow();

		assertThat(handle.extend(Duration.ofSeconds(2))).isTrue();

		// Renewed a third into the 2s lease; at the 30s lease's pace the first renewal would come at 10s, and
		// the lock would be free from the 2s lease's end, a second before this watch ends.
		await().during(Duration.ofSeconds(3))
			.atMost(Duration.ofSeconds(5))
			.until(() -> other.tryAcquire("job", LockOptions.ofTtl(LONG)).isEmpty());
		assertThat(handle.isHeld()).isTrue();
	}

	@Test
	void extendPushesTheLeaseOut() throws Exception {
		LockOptions shortLease = LockOptions.ofTtl(Duration.ofSeconds(2)).withRenew(false);
		LockHandle handle = this.locks.tryAcquire("job", shortLease).orElseThrow();
		assertThat(handle.extend(LONG)).isTrue();

		assertThat(handle.expiresAt()).isAfter(handle.acquiredAt().plus(Duration.ofSeconds(20)));
		assertThat(newService().tryAcquire("job", shortLease.withWaitTime(Duration.ofSeconds(3))))
			.as("still held past the original lease")
			.isEmpty();
		assertThat(handle.isHeld()).isTrue();
	}

	@Test
	void renewalKeepsALockPastItsTtl() throws Exception {
		LockOptions renewed = LockOptions.ofTtl(Duration.ofSeconds(1));
		DefaultLockService other = newService();
		LockHandle handle = this.locks.tryAcquire("job", renewed).orElseThrow();

		assertThat(other.tryAcquire("job", renewed.withWaitTime(Duration.ofSeconds(2)))).as("held past twice its ttl")
			.isEmpty();
		assertThat(handle.isHeld()).isTrue();
		handle.close();
		assertThat(other.tryAcquire("job", renewed)).isPresent();
	}

	@Test
	void aWaiterGetsTheLockWhenTheHolderReleases() throws Exception {
		LockHandle holder = this.locks.tryAcquire("job", LockOptions.ofTtl(LONG)).orElseThrow();
		DefaultLockService other = newService();
		AtomicReference<Thread> waitingThread = new AtomicReference<>();
		Future<Optional<LockHandle>> waiter = this.threads.submit(() -> {
			waitingThread.set(Thread.currentThread());
			return other.tryAcquire("job", LockOptions.ofTtl(LONG).withWaitTime(LONG));
		});
		await().until(() -> waitingThread.get() != null && waitingThread.get().getState() == Thread.State.TIMED_WAITING);
		holder.close();

		LockHandle handed = waiter.get(20, TimeUnit.SECONDS).orElseThrow();
		assertThat(handed.fencingToken()).isGreaterThan(holder.fencingToken());
	}

	@Test
	void readersShareAKeyAndAWriterOfAnotherEngineWaitsForTheLastOne() throws Exception {
		assumeTrue(grantsShares(), "this store grants no shares");
		DefaultLockService other = newService();
		LockHandle first = this.locks.tryAcquire("doc", READ).orElseThrow();
		LockHandle second = other.tryAcquire("doc", READ).orElseThrow();

		assertThat(second.fencingToken()).isGreaterThan(first.fencingToken());
		assertThat(newService().tryAcquire("doc", LockOptions.ofTtl(LONG))).isEmpty();
		first.close();
		assertThat(newService().tryAcquire("doc", LockOptions.ofTtl(LONG))).isEmpty();
		second.close();
		try (LockHandle writer = newService().tryAcquire("doc", LockOptions.ofTtl(LONG)).orElseThrow()) {
			assertThat(writer.fencingToken()).isGreaterThan(second.fencingToken());
			assertThat(other.tryAcquire("doc", READ)).isEmpty();
		}
	}

	@Test
	void aReaderArrivingWhileAWriterWaitsQueuesBehindIt() throws Exception {
		assumeTrue(grantsShares() && servesWaitersInArrivalOrder(), "this store grants no shares in arrival order");
		LockHandle reader = newService().tryAcquire("doc", READ).orElseThrow();
		Future<Optional<LockHandle>> writer = waitInOwnThread(newService(), LockOptions.ofTtl(LONG));

		assertThat(newService().tryAcquire("doc", READ)).as("a reader passing the waiting writer").isEmpty();
		reader.close();
		writer.get(20, TimeUnit.SECONDS).orElseThrow().close();
	}

	@Test
	void releasingAWriterGrantsTheWaitingReadersUpToTheNextWriter() throws Exception {
		assumeTrue(grantsShares() && servesWaitersInArrivalOrder(), "this store grants no shares in arrival order");
		LockHandle writer = newService().tryAcquire("doc", LockOptions.ofTtl(LONG)).orElseThrow();
		Future<Optional<LockHandle>> firstReader = waitInOwnThread(newService(), READ);
		Future<Optional<LockHandle>> secondReader = waitInOwnThread(newService(), READ);
		Future<Optional<LockHandle>> nextWriter = waitInOwnThread(newService(), LockOptions.ofTtl(LONG));

		writer.close();
		LockHandle first = firstReader.get(20, TimeUnit.SECONDS).orElseThrow();
		LockHandle second = secondReader.get(20, TimeUnit.SECONDS).orElseThrow();
		assertThat(List.of(first.fencingToken(), second.fencingToken())).doesNotHaveDuplicates()
			.allMatch((token) -> token > writer.fencingToken());
		assertThat(nextWriter).isNotDone();
		first.close();
		second.close();
		nextWriter.get(20, TimeUnit.SECONDS).orElseThrow().close();
	}

	@Test
	void aPermitCountOtherThanTheHeldOneIsRefusedNamingBoth() throws Exception {
		assumeTrue(grantsShares(), "this store grants no shares");
		try (LockHandle held = newService().tryAcquire("pdf", LockOptions.ofTtl(LONG).withPermits(4)).orElseThrow()) {
			assertThatIllegalStateException().isThrownBy(() -> this.locks.tryAcquire("pdf",
					LockOptions.ofTtl(LONG).withPermits(3)))
				.withMessage("Lock '******' is held with 4 permits; this call asked for 3: every caller of a key must give "
						+ "the same permit count");
		}
	}

	@Test
	void aStoreWithoutSharesRefusesThemNamingItself() {
		assumeTrue(!grantsShares(), "this store grants shares");
		assertThatIllegalStateException().isThrownBy(() -> this.locks.tryAcquire("doc", READ))
			.withMessageStartingWith("The lock store ")
			.withMessageContaining("does not support mode READ");
	}

	/** Waits for {@code "doc"} on a thread of its own, returning once the engine waits in the queue. */
	private Future<Optional<LockHandle>> waitInOwnThread(DefaultLockService engine, LockOptions options) {
		AtomicReference<Thread> waiter = new AtomicReference<>();
		Future<Optional<LockHandle>> acquired = this.threads.submit(() -> {
			waiter.set(Thread.currentThread());
			return engine.tryAcquire("doc", options.withWaitTime(LONG));
		});
		// Waiting on its own for a while, not for one store call's answer.
		await().pollInterval(Duration.ofMillis(10))
			.during(Duration.ofMillis(150))
			.atMost(Duration.ofSeconds(10))
			.until(() -> waiter.get() != null && waiter.get().getState() == Thread.State.TIMED_WAITING);
		return acquired;
	}

	@Test
	void waitersOfOneKeyInOneProcessAreServedInArrivalOrder() throws Exception {
		assumeTrue(servesWaitersInArrivalOrder(), "this store serves waiters in no particular order");
		LockHandle holder = newService().tryAcquire("job", LockOptions.ofTtl(LONG)).orElseThrow();
		List<Integer> servedOrder = new CopyOnWriteArrayList<>();
		List<Thread> waiters = new CopyOnWriteArrayList<>();
		for (int i = 0; i < 4; i++) {
			int id = i;
			Thread waiter = new Thread(() -> {
				try (LockHandle handle = this.locks.acquire("job", LockOptions.ofTtl(LONG).withWaitTime(LONG))) {
					servedOrder.add(id);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			});
			waiter.start();
			waiters.add(waiter);
			await().until(() -> waiter.getState() == Thread.State.TIMED_WAITING);
		}
		holder.close();
		for (Thread waiter : waiters) {
			waiter.join(TimeUnit.SECONDS.toMillis(20));
		}

		assertThat(servedOrder).containsExactly(0, 1, 2, 3);
	}

	@Test
	void waitersOfSeveralEnginesAreServedInArrivalOrder() throws Exception {
		assumeTrue(servesWaitersInArrivalOrder(), "this store serves waiters in no particular order");
		LockHandle holder = this.locks.tryAcquire("report", LockOptions.ofTtl(LONG)).orElseThrow();
		List<String> servedOrder = new CopyOnWriteArrayList<>();
		List<Future<?>> waiters = new ArrayList<>();
		for (String name : List.of("first", "second", "third")) {
			DefaultLockService engine = newService();
			AtomicReference<Thread> waitingThread = new AtomicReference<>();
			waiters.add(this.threads.submit(() -> {
				waitingThread.set(Thread.currentThread());
				try (LockHandle handle = engine.acquire("report", LockOptions.ofTtl(LONG).withWaitTime(LONG))) {
					servedOrder.add(name);
				}
				return null;
			}));
			awaitQueued(waitingThread);
		}
		holder.close();
		for (Future<?> waiter : waiters) {
			waiter.get(20, TimeUnit.SECONDS);
		}

		assertThat(servedOrder).containsExactly("first", "second", "third");
	}

	@Test
	void aWaiterForSeveralKeysKeepsNoFreeKeyFromOthers() throws Exception {
		LockHandle a = this.locks.tryAcquire("a", LockOptions.ofTtl(LONG)).orElseThrow();
		DefaultLockService waiting = newService();
		AtomicReference<Thread> waitingThread = new AtomicReference<>();
		Future<Optional<LockHandle>> both = this.threads.submit(() -> {
			waitingThread.set(Thread.currentThread());
			return waiting.tryAcquireAll(List.of("a", "b"), LockOptions.ofTtl(LONG).withWaitTime(LONG));
		});
		awaitQueued(waitingThread);
		DefaultLockService other = newService();

		for (int i = 0; i < 5; i++) {
			Optional<LockHandle> b = other.tryAcquire("b", LockOptions.ofTtl(LONG));
			assertThat(b).as("free key 'b' while a waiter for 'a' and 'b' waits, try %d", i).isPresent();
			b.get().close();
		}
		a.close();
		assertThat(both.get(30, TimeUnit.SECONDS)).as("the waiter got both once 'a' was free").isPresent();
	}

	@Test
	void aFreedKeyGoesToAWaiterThatCanUseItWhileWaitersForSeveralKeysWaitForAnother() throws Exception {
		DefaultLockService holders = newService();
		LockHandle a = holders.tryAcquire("a", LockOptions.ofTtl(LONG)).orElseThrow();
		LockHandle b = holders.tryAcquire("b", LockOptions.ofTtl(LONG)).orElseThrow();
		List<String> servedOrder = new CopyOnWriteArrayList<>();
		List<Future<?>> waiters = new ArrayList<>();
		for (String name : List.of("first-both", "second-both")) {
			waiters.add(waitInBackground(name, List.of("a", "b"), servedOrder));
		}
		Future<?> onlyA = waitInBackground("only-a", List.of("a"), servedOrder);

		a.close();
		onlyA.get(20, TimeUnit.SECONDS);
		assertThat(servedOrder).as("'a' reached the waiter that could use it").containsExactly("only-a");
		b.close();
		for (Future<?> waiter : waiters) {
			waiter.get(20, TimeUnit.SECONDS);
		}
		if (servesWaitersInArrivalOrder()) {
			assertThat(servedOrder).containsExactly("only-a", "first-both", "second-both");
		}
	}

	/** Waits in a new engine for {@code keys}, once queued; the lock is recorded as served, then released. */
	private Future<?> waitInBackground(String name, List<String> keys, List<String> servedOrder) {
		DefaultLockService engine = newService();
		AtomicReference<Thread> waitingThread = new AtomicReference<>();
		Future<?> waiter = this.threads.submit(() -> {
			waitingThread.set(Thread.currentThread());
			try (LockHandle handle = engine.tryAcquireAll(keys, LockOptions.ofTtl(LONG).withWaitTime(LONG)).orElseThrow()) {
				servedOrder.add(name);
			}
			return null;
		});
		awaitQueued(waitingThread);
		return waiter;
	}

	@Test
	void waitingEndsEmptyWhenTheLockStaysBusy() throws Exception {
		newService().tryAcquire("job", LockOptions.ofTtl(LONG)).orElseThrow();

		assertThat(this.locks.tryAcquire("job", LockOptions.ofTtl(LONG).withWaitTime(Duration.ofMillis(300))))
			.isEmpty();
		assertThatExceptionOfType(LockBusyException.class)
			.isThrownBy(() -> this.locks.acquire("job", LockOptions.ofTtl(LONG).withWaitTime(Duration.ofMillis(100))))
			.withMessageContaining("'******'")
			.satisfies((busy) -> assertThat(busy.getWaited()).isGreaterThanOrEqualTo(Duration.ofMillis(100)))
			.satisfies((busy) -> assertThat(busy).hasMessageEndingWith("(waited " + busy.getWaited().toMillis() + "ms)"));
	}

	@Test
	void waitingIsInterruptible() throws Exception {
		newService().tryAcquire("job", LockOptions.ofTtl(LONG)).orElseThrow();
		AtomicReference<Throwable> outcome = new AtomicReference<>();
		Thread waiter = new Thread(() -> {
			try {
				this.locks.tryAcquire("job", LockOptions.ofTtl(LONG).withWaitTime(LONG));
			}
			catch (Throwable ex) {
				outcome.set(ex);
			}
		});
		waiter.start();
		await().until(() -> waiter.getState() == Thread.State.TIMED_WAITING);
		waiter.interrupt();
		waiter.join(TimeUnit.SECONDS.toMillis(10));

		assertThat(outcome.get()).isInstanceOf(InterruptedException.class);
	}

	@Test
	void aLockIsReleasedWhenItsLastHoldEnds() throws Exception {
		LockHandle first = this.locks.tryAcquire("orders:1", LockOptions.ofTtl(LONG)).orElseThrow();
		LockHandle second = first.hold();
		LockHandle third = second.hold();

		first.close();
		first.close();
		second.close();
		assertThat(newService().tryAcquire("orders:1", LockOptions.ofTtl(LONG))).as("while a hold remains").isEmpty();
		assertThat(third.fencingToken()).isEqualTo(first.fencingToken());
		third.close();
		assertThat(newService().tryAcquire("orders:1", LockOptions.ofTtl(LONG))).isPresent();
	}

	@Test
	void aReleasedLockTakesNoFurtherHold() throws Exception {
		LockHandle handle = this.locks.tryAcquire("orders:1", LockOptions.ofTtl(LONG)).orElseThrow();
		handle.close();

		assertThatExceptionOfType(IllegalStateException.class).isThrownBy(handle::hold)
			.withMessage("Lock 'orders:******' was already released");
	}

	@Test
	void severalKeysAreAcquiredAllOrNothing() throws Exception {
		LockHandle b = newService().tryAcquire("account:b", LockOptions.ofTtl(LONG)).orElseThrow();

		assertThat(this.locks.tryAcquireAll(List.of("account:a", "account:b"), LockOptions.ofTtl(LONG))).isEmpty();
		assertThat(newService().tryAcquire("account:a", LockOptions.ofTtl(LONG))).as("a was not taken").isPresent();
		b.close();
	}

	@Test
	void severalKeysAreHeldAndReleasedTogether() throws Exception {
		LockHandle both = this.locks.tryAcquireAll(List.of("account:b", "account:a", "account:a"), LockOptions.ofTtl(LONG))
			.orElseThrow();

		assertThat(this.locks.heldLocks()).extracting(LockInfo::key).containsExactly("account:a", "account:b");
		assertThat(newService().tryAcquire("account:b", LockOptions.ofTtl(LONG))).isEmpty();
		both.close();
		assertThat(newService().tryAcquireAll(List.of("account:a", "account:b"), LockOptions.ofTtl(LONG))).isPresent();
	}

	@Test
	void overlappingKeySetsTakenInOppositeOrderDoNotDeadlock() throws Exception {
		DefaultLockService other = newService();
		LockOptions waiting = LockOptions.ofTtl(LONG).withWaitTime(LONG);
		List<Future<Integer>> transfers = new ArrayList<>();
		for (int t = 0; t < 4; t++) {
			DefaultLockService service = (t % 2 == 0) ? this.locks : other;
			List<String> keys = (t < 2) ? List.of("account:a", "account:b") : List.of("account:b", "account:a");
			transfers.add(this.threads.submit(() -> {
				int done = 0;
				for (int i = 0; i < 50; i++) {
					try (LockHandle handle = service.tryAcquireAll(keys, waiting).orElseThrow()) {
						done++;
					}
				}
				return done;
			}));
		}
		for (Future<Integer> transfer : transfers) {
			assertThat(transfer.get(60, TimeUnit.SECONDS)).isEqualTo(50);
		}
	}

	/** Waits until the thread sleeps, refused and queued, for a while: not a store call's short wait. */
	private static void awaitQueued(AtomicReference<Thread> waitingThread) {
		await().during(Duration.ofMillis(200))
			.atMost(Duration.ofSeconds(30))
			.until(() -> waitingThread.get() != null && waitingThread.get().getState() == Thread.State.TIMED_WAITING);
	}

	@Test
	void callLockedRunsTheActionUnderTheLockAndReleasesIt() {
		String result = this.locks.callLocked("job", LockOptions.ofTtl(LONG), () -> {
			assertThat(this.locks.heldLocks()).extracting(LockInfo::key).containsExactly("job");
			return "done";
		});

		assertThat(result).isEqualTo("done");
		assertThat(this.locks.heldLocks()).isEmpty();
	}

	@Test
	void callLockedWrapsCheckedExceptionsAndStillReleases() throws Exception {
		Exception failure = new java.io.IOException("disk full");

		assertThatExceptionOfType(java.lang.reflect.UndeclaredThrowableException.class)
			.isThrownBy(() -> this.locks.callLocked("job", LockOptions.ofTtl(LONG), () -> {
				throw failure;
			}))
			.withCause(failure);
		assertThat(newService().tryAcquire("job", LockOptions.ofTtl(LONG))).isPresent();
	}

	@Test
	void callLockedEndsWithLockLostWhenTheLeaseRanOutDuringTheAction() {
		LockOptions shortLease = LockOptions.ofTtl(Duration.ofMillis(100)).withRenew(false);

		assertThatExceptionOfType(LockLostException.class)
			.isThrownBy(() -> this.locks.runLocked("job", shortLease, () -> {
				LockHandle handle = LockContext.current().orElseThrow();
				await().atMost(Duration.ofSeconds(10)).until(() -> !handle.isHeld());
			}))
			.withMessageContaining("'******'");
	}

	@Test
	void heldLocksDescribeEachHeldLock() throws Exception {
		LockHandle handle = this.locks.tryAcquire("orders:1", LockOptions.ofTtl(LONG)).orElseThrow();

		assertThat(this.locks.heldLocks()).singleElement().satisfies((info) -> {
			assertThat(info.key()).isEqualTo("orders:1");
			assertThat(info.fencingToken()).isEqualTo(handle.fencingToken());
			assertThat(info.ownerThread()).isEqualTo(Thread.currentThread().getName());
			assertThat(info.expiresAt()).isAfter(info.acquiredAt());
		});
		handle.close();
		assertThat(this.locks.heldLocks()).isEmpty();
	}

	@Test
	void aLockWithAMinimumHoldStaysTakenAfterAnEarlyReleaseAndThenFreesItself() throws Exception {
		DefaultLockService other = newService();
		LockHandle handle = this.locks.tryAcquire("job", LockOptions.ofTtl(LONG).withHoldAtLeast(Duration.ofSeconds(3)))
			.orElseThrow();
		handle.close();

		assertThat(handle.isHeld()).isFalse();
		assertThat(this.locks.heldLocks()).isEmpty();
		assertThat(other.isLocked("job")).isTrue();
		assertThat(other.tryAcquire("job", LockOptions.ofTtl(LONG))).as("kept for the minimum hold").isEmpty();
		await().atMost(Duration.ofSeconds(20))
			.alias("freed by itself long before its 30s lease")
			.until(() -> other.tryAcquire("job", LockOptions.ofTtl(LONG)).isPresent());
	}

	@Test
	void aWaiterGetsALockWithAMinimumHoldOnlyOnceTheMinimumHasPassed() throws Exception {
		Duration holdAtLeast = Duration.ofSeconds(2);
		DefaultLockService other = newService();
		long beforeGrant = System.nanoTime();
		LockHandle holder = this.locks.tryAcquire("job", LockOptions.ofTtl(LONG).withHoldAtLeast(holdAtLeast))
			.orElseThrow();
		AtomicReference<Thread> waitingThread = new AtomicReference<>();
		Future<Long> grantedAfter = this.threads.submit(() -> {
			waitingThread.set(Thread.currentThread());
			other.acquire("job", LockOptions.ofTtl(LONG).withWaitTime(LONG));
			return System.nanoTime() - beforeGrant;
		});
		await().until(() -> waitingThread.get() != null && waitingThread.get().getState() == Thread.State.TIMED_WAITING);
		holder.close();

		assertThat(Duration.ofNanos(grantedAfter.get(20, TimeUnit.SECONDS))).isGreaterThanOrEqualTo(holdAtLeast);
	}

	@Test
	void aLockReleasedAfterItsMinimumHoldIsFreeAtOnce() throws Exception {
		Duration holdAtLeast = Duration.ofMillis(200);
		LockHandle handle = this.locks.tryAcquire("job", LockOptions.ofTtl(LONG).withHoldAtLeast(holdAtLeast))
			.orElseThrow();
		long granted = System.nanoTime();
		await().until(() -> System.nanoTime() - granted > holdAtLeast.toNanos());
		handle.close();

		assertThat(newService().tryAcquire("job", LockOptions.ofTtl(LONG))).isPresent();
	}

	@Test
	void isLockedAsksTheStoreWhoeverHoldsTheLock() throws Exception {
		DefaultLockService other = newService();
		assertThat(other.isLocked("job")).isFalse();

		LockHandle handle = this.locks.tryAcquire("job", LockOptions.ofTtl(LONG)).orElseThrow();
		assertThat(other.isLocked("job")).isTrue();
		assertThat(other.isLocked("job:2")).isFalse();
		handle.close();
		assertThat(other.isLocked("job")).isFalse();
	}

	@Test
	void anUnrenewedLockExtendedByHandStaysListedPastItsFirstLease() throws Exception {
		LockOptions shortLease = LockOptions.ofTtl(Duration.ofSeconds(2)).withRenew(false);
		LockHandle extended = this.locks.tryAcquire("job", shortLease).orElseThrow();
		assertThat(extended.extend(LONG)).isTrue();
		LockHandle witness = this.locks.tryAcquire("witness", shortLease).orElseThrow();

		await().atMost(Duration.ofSeconds(10)).until(() -> !witness.isHeld());
		assertThat(this.locks.heldLocks()).extracting(LockInfo::key).containsExactly("job");
	}

	@Test
	void optionsAreTheDefaultsTheServiceWasBuiltWith() {
		LockOptions configured = LockOptions.ofTtl(Duration.ofSeconds(45)).withWaitTime(Duration.ofSeconds(10));

		assertThat(newService(newServiceBuilder().options(configured)).options()).isEqualTo(configured);
		assertThat(this.locks.options()).isEqualTo(LockOptions.ofTtl(Duration.ofSeconds(30)));
	}

}
