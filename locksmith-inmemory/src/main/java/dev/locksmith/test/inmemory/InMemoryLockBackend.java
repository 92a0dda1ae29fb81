package dev.locksmith.test.inmemory;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import dev.locksmith.core.LockOwner;
import dev.locksmith.core.OwnerEntries;
import dev.locksmith.core.LockStore;
import dev.locksmith.core.ReleaseNotifications;
import dev.locksmith.core.ReleaseNotifications.Listener;
import dev.locksmith.core.StoreAdministration;
import dev.locksmith.test.inmemory.InMemoryLockStore.Extension;

/**
 * {@link LockStore} that keeps locks in this JVM's memory, for fast tests without Redis. Leases,
 * fencing tokens, fair wait queues and hand-over under a claim lease follow the same rules as the
 * Redis store; every engine built on one instance shares its locks, as the processes of a fleet
 * share one Redis. It gives no mutual exclusion between processes: never use it in production.
 * <pre>{@code
 * InMemoryLockBackend store = new InMemoryLockBackend();
 * DefaultLockService locks = DefaultLockService.builder(store).build();
 * }</pre>
 *
 * @since 0.1.0
 */
public final class InMemoryLockBackend implements LockStore {

	/** How long a waiter handed a lock has to take it, unless configured otherwise. */
	private static final Duration DEFAULT_CLAIM_LEASE = Duration.ofSeconds(2);

	private final InMemoryReleaseNotifications notifications = new InMemoryReleaseNotifications();

	private final InMemoryLockStore store;

	private final InMemoryLockAdministration administration;

	private final Duration claimLease;

	public InMemoryLockBackend() {
		this(DEFAULT_CLAIM_LEASE);
	}

	/** A store whose releases give the next waiter {@code claimLease} to take the lock. */
	public InMemoryLockBackend(Duration claimLease) {
		if (claimLease == null || claimLease.toMillis() < 1) {
			throw new IllegalArgumentException("claimLease must be at least 1ms, was " + claimLease);
		}
		this.store = new InMemoryLockStore(claimLease, this.notifications);
		this.administration = new InMemoryLockAdministration(this.store);
		this.claimLease = claimLease;
	}

	@Override
	public Duration claimLease() {
		return this.claimLease;
	}

	@Override
	public CompletableFuture<AcquireResult> tryAcquire(AcquireRequest request) {
		return CompletableFuture.completedFuture(this.store.tryAcquire(request.keys(),
				OwnerEntries.of(request.owner()), request.ttl(), request.queueFor()));
	}

	/** Releases; the waiters in this JVM hear of each hand-over from the notifications, before this answers. */
	@Override
	public CompletableFuture<Integer> release(List<String> keys, LockOwner owner, Listener handOvers) {
		return CompletableFuture.completedFuture(this.store.release(keys, OwnerEntries.of(owner)));
	}

	@Override
	public List<CompletableFuture<Boolean>> extend(List<LeaseExtension> leases) {
		List<Extension> extensions = leases.stream()
			.map((lease) -> new Extension(lease.key(), OwnerEntries.of(lease.owner()), lease.ttl(), lease.last()))
			.toList();
		return this.store.extend(extensions).stream().map(CompletableFuture::completedFuture).toList();
	}

	@Override
	public boolean grantsShares() {
		return true;
	}

	@Override
	public CompletableFuture<Boolean> isLocked(String key) {
		return CompletableFuture.completedFuture(this.store.isLocked(key));
	}

	/** The notifications that wake the waiters of every engine on this store when a release hands them a lock. */
	@Override
	public ReleaseNotifications notifications() {
		return this.notifications;
	}

	/** What this store holds, and forced release, for the {@code locks} endpoint and health contributor. */
	@Override
	public StoreAdministration administration() {
		return this.administration;
	}

	/** How many owners stand in the queue of {@code key}, as Redis's {@code LLEN} of the queue tells. */
	int queueLength(String key) {
		return this.store.queueLength(key);
	}

}
