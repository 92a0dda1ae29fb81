package dev.locksmith.test.inmemory;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import dev.locksmith.annotation.LockMode;
import dev.locksmith.core.DefaultLockService;
import dev.locksmith.core.LockAdministration.StoredLock;
import dev.locksmith.core.LockAdministration.StoredLock.Holder;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockOwner;
import dev.locksmith.core.LockStore.AcquireRequest;
import dev.locksmith.core.LockStore.AcquireResult;
import dev.locksmith.core.ReleaseNotifications;
import dev.locksmith.test.contract.LockStoreContractTests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The lock contract on the in-memory store, plus the queue rules the Redis store keeps across
 * processes: every engine here shares one store, as the processes of a fleet share one Redis.
 */
class InMemoryLockServiceTests extends LockStoreContractTests {

	private static final ReleaseNotifications.Listener NO_HAND_OVERS = (key, owner, claimLease, fencingToken) -> {
	};

	private final InMemoryLockBackend store = new InMemoryLockBackend();

	@Override
	protected DefaultLockService.Builder newServiceBuilder() {
		return DefaultLockService.builder(this.store);
	}

	@Test
	void aReleaseWakesTheWaiterItHandsTheLockTo() throws Exception {
		InMemoryLockBackend longClaims = new InMemoryLockBackend(Duration.ofMinutes(20));
		LockHandle held = newService(DefaultLockService.builder(longClaims))
			.tryAcquire("job", LockOptions.ofTtl(Duration.ofMinutes(5)))
			.orElseThrow();
		DefaultLockService patient = newService(DefaultLockService.builder(longClaims)
			.recheckInterval(Duration.ofMinutes(10)));
		CompletableFuture<Optional<LockHandle>> next = waitInBackground(patient, "job");
		await().until(() -> queuedIn(longClaims, "job") == 1);

		held.close();

		assertThat(next.get(20, TimeUnit.SECONDS)).as("woken by the hand-over, not by a re-check minutes away")
			.isPresent();
	}

	@Test
	void aWaiterThatGivesUpLeavesTheQueueAndTheNextOneIsHandedTheLock() throws Exception {
		LockHandle held = this.locks.tryAcquire("job", LockOptions.ofTtl(LONG)).orElseThrow();
		assertThat(newService().tryAcquire("job", LockOptions.ofTtl(LONG).withWaitTime(Duration.ofMillis(200))))
			.isEmpty();
		CompletableFuture<Optional<LockHandle>> patient = waitInBackground(newService(), "job");
		await().until(() -> queued("job") == 1);

		held.close();

		assertThat(patient.get(30, TimeUnit.SECONDS)).as("handed over at once, not after a claim lease")
			.isPresent();
	}

	@Test
	void aWaiterHandedALockThatNeverTakesItDelaysTheNextByTheClaimLease() throws Exception {
		InMemoryLockBackend shortClaims = new InMemoryLockBackend(Duration.ofMillis(300));
		String ghost = "crashed-instance:ghost";
		Duration holderLease = Duration.ofMinutes(5);
		assertThat(shortClaims.tryAcquire(new AcquireRequest(List.of("job"), LockOwner.exclusive("holder:1"), holderLease, Duration.ZERO)).get().acquired())
			.isTrue();
		assertThat(shortClaims.tryAcquire(new AcquireRequest(List.of("job"), LockOwner.exclusive(ghost), LONG, LONG)).get().acquired()).isFalse();
		DefaultLockService live = newService(DefaultLockService.builder(shortClaims)
			.recheckInterval(Duration.ofMillis(150)));
		CompletableFuture<Optional<LockHandle>> next = waitInBackground(live, "job");
		await().until(() -> queuedIn(shortClaims, "job") == 2);

		shortClaims.release(List.of("job"), LockOwner.exclusive("holder:1"), NO_HAND_OVERS).get();

		assertThat(next.get(20, TimeUnit.SECONDS))
			.as("taken once the ghost's claim lease ran out, long before the old lease's end")
			.isPresent();
	}

	@Test
	void aWaiterForSeveralKeysIsPassedOverOnAFreedKeyWhileAnotherOfItsKeysIsBusyAndKeepsItsPlace() throws Exception {
		InMemoryLockBackend backend = new InMemoryLockBackend();
		assertThat(attempt(backend, List.of("a"), "first:holder", Duration.ZERO).acquired()).isTrue();
		assertThat(attempt(backend, List.of("b"), "busy:holder", Duration.ZERO).acquired()).isTrue();
		assertThat(attempt(backend, List.of("a", "b"), "both:waiter", LONG).acquired()).isFalse();
		assertThat(attempt(backend, List.of("a"), "next:waiter", LONG).acquired()).isFalse();
		assertThat(attempt(backend, List.of("a"), "later:waiter", LONG).acquired()).isFalse();

		backend.release(List.of("a"), LockOwner.exclusive("first:holder"), NO_HAND_OVERS).get();
		assertThat(attempt(backend, List.of("a", "b"), "both:waiter", LONG).busyKey()).isEqualTo("b");
		assertThat(attempt(backend, List.of("a"), "next:waiter", LONG).acquired()).as("'a' was passed on").isTrue();

		backend.release(List.of("a"), LockOwner.exclusive("next:waiter"), NO_HAND_OVERS).get();
		assertThat(attempt(backend, List.of("a"), "later:waiter", LONG).acquired())
			.as("the parked waiter is passed over").isTrue();
		backend.release(List.of("a"), LockOwner.exclusive("later:waiter"), NO_HAND_OVERS).get();
		assertThat(backend.isLocked("a").get()).as("left free, not handed to the parked waiter").isFalse();
		assertThat(queuedIn(backend, "a")).as("which keeps its place").isOne();

		backend.release(List.of("b"), LockOwner.exclusive("busy:holder"), NO_HAND_OVERS).get();
		assertThat(attempt(backend, List.of("a", "b"), "both:waiter", LONG).acquired())
			.as("handed 'b', and 'a' is free").isTrue();
		assertThat(queuedIn(backend, "a") + queuedIn(backend, "b")).as("queues empty once nobody waits").isZero();
	}

	@Test
	void theAdministrationListsTheLocksWithTheirHolderAndForceReleasesThem() throws Exception {
		DefaultLockService wallet = newService(newServiceBuilder().instanceId("wallet-1"));
		LockHandle evicted = wallet.tryAcquire("account:42", LockOptions.ofTtl(LONG)).orElseThrow();

		assertThat(this.store.administration().storedLocks(10).join()).singleElement().satisfies((lock) -> {
			assertThat(lock.key()).isEqualTo("account:42");
			assertThat(lock.holderInstance()).isEqualTo("wallet-1");
			assertThat(lock.remainingTtl()).isPositive().isLessThanOrEqualTo(LONG);
		});
		assertThat(this.store.administration().forceRelease("account:42").join()).isTrue();
		assertThat(this.store.administration().forceRelease("account:42").join()).isFalse();

		LockHandle next = newService().tryAcquire("account:42", LockOptions.ofTtl(LONG)).orElseThrow();
		assertThat(next.fencingToken()).as("the evicted holder's token stays the lower").isGreaterThan(evicted.fencingToken());
	}

	@Test
	void theAdministrationListsASharedLockWithItsModeItsPermitsAndEachHolderAsTheRedisStoreDoes() throws Exception {
		LockOptions read = LockOptions.ofTtl(LONG).withMode(LockMode.READ);
		LockOptions permits = LockOptions.ofTtl(LONG).withPermits(3);
		acquireAs("reader-1", "doc", read);
		acquireAs("reader-2", "doc", read.withTtl(LONG.multipliedBy(2)));
		acquireAs("render-1", "pdf", permits);
		acquireAs("render-2", "pdf", permits);

		Map<String, StoredLock> stored = this.store.administration().storedLocks(10).join().stream()
			.collect(Collectors.toMap(StoredLock::key, (lock) -> lock));

		assertThat(stored).containsOnlyKeys("doc", "pdf");
		assertThat(stored.get("doc")).satisfies((lock) -> {
			assertThat(lock.mode()).isEqualTo(LockMode.READ);
			assertThat(lock.permits()).isEqualTo(1);
			assertThat(lock.holders()).extracting(Holder::instance).containsExactly("reader-1", "reader-2");
			assertThat(lock.holders().get(0).remainingLease()).isPositive().isLessThanOrEqualTo(LONG);
			assertThat(lock.holderInstance()).as("the holder whose lease ends last").isEqualTo("reader-2");
			assertThat(lock.remainingTtl()).isGreaterThan(LONG).isEqualTo(lock.holders().get(1).remainingLease());
		});
		assertThat(stored.get("pdf")).satisfies((lock) -> {
			assertThat(lock.mode()).isEqualTo(LockMode.WRITE);
			assertThat(lock.permits()).isEqualTo(3);
			assertThat(lock.holders()).extracting(Holder::instance).containsExactlyInAnyOrder("render-1", "render-2");
		});
	}

	private void acquireAs(String instance, String key, LockOptions options) throws Exception {
		newService(newServiceBuilder().instanceId(instance)).tryAcquire(key, options).orElseThrow();
	}

	private static AcquireResult attempt(InMemoryLockBackend backend, List<String> keys, String ownerToken,
			Duration queueFor) throws Exception {
		return backend.tryAcquire(new AcquireRequest(keys, LockOwner.exclusive(ownerToken), LONG, queueFor)).get();
	}

	private CompletableFuture<Optional<LockHandle>> waitInBackground(DefaultLockService engine, String key) {
		return CompletableFuture.supplyAsync(() -> {
			try {
				return engine.tryAcquire(key, LockOptions.ofTtl(LONG).withWaitTime(Duration.ofMinutes(1)));
			}
			catch (InterruptedException ex) {
				throw new IllegalStateException(ex);
			}
		});
	}

	private int queued(String key) {
		return queuedIn(this.store, key);
	}

	private static int queuedIn(InMemoryLockBackend store, String key) {
		return store.queueLength(key);
	}

}
