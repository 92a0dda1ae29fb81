package dev.locksmith.test.inmemory;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;

import dev.locksmith.core.LockAdministration.StoredLock;
import dev.locksmith.core.LockStore.AcquireResult;
import dev.locksmith.core.OwnerEntries;

/**
 * The locks, fencing tokens and wait queues of the in-memory store, with the rules of the Redis
 * scripts: a free lock goes to the first live waiter that can use it now under a claim lease, nobody
 * overtakes a waiter that could take it, and a caller refused on one key waits for that key and is
 * parked in the queues of the others, giving back what it was handed there. Readers and permit holders
 * (owner entries naming a share, see {@link OwnerEntries}) each hold their own lease in the lock's holders, stand in the same
 * queue, and are granted together up to the next other waiter. One lock guards
 * everything (no {@code synchronized}, so virtual threads never pin); leases end lazily, by the clock.
 */
final class InMemoryLockStore {

	private final ReentrantLock guard = new ReentrantLock();

	private final Map<String, Lease> leases = new HashMap<>();

	private final Map<String, WaitQueue> queues = new HashMap<>();

	/** The holders of each shared lock, with the end of each one's own lease. */
	private final Map<String, Map<String, Long>> shareHolders = new HashMap<>();

	private final Duration claimLease;

	private final InMemoryReleaseNotifications notifications;

	private long lastFencingToken;

	InMemoryLockStore(Duration claimLease, InMemoryReleaseNotifications notifications) {
		this.claimLease = claimLease;
		this.notifications = notifications;
	}

	AcquireResult tryAcquire(List<String> keys, String ownerToken, Duration ttl, Duration queueFor) {
		String share = OwnerEntries.shareOf(ownerToken);
		if (share != null) {
			return guarded((now, handedOver) -> acquireShare(keys.get(0), ownerToken, share, ttl, queueFor, now,
					handedOver));
		}
		return guarded((now, handedOver) -> {
			for (String key : keys) {
				String holder = holder(key, now);
				if (holder == null && hasWaiters(key, now)) {
					holder = handOn(key, now, ownerToken, handedOver);
				}
				if (holder != null && !holder.equals(ownerToken)) {
					Duration remainingLease = Duration.ofNanos(this.leases.get(key).expiresAt - now);
					giveBackAndQueue(keys, key, ownerToken, queueFor.toNanos(), now, handedOver);
					return AcquireResult.busy(key, remainingLease, this.lastFencingToken);
				}
			}
			Map<String, Long> fencingTokens = new LinkedHashMap<>();
			for (String key : keys) {
				this.leases.put(key, new Lease(ownerToken, now + ttl.toNanos()));
				leaveQueue(key, ownerToken);
				fencingTokens.put(key, nextFencingToken());
			}
			return AcquireResult.granted(fencingTokens);
		});
	}

	int release(List<String> keys, String ownerToken) {
		String share = OwnerEntries.shareOf(ownerToken);
		if (share != null) {
			return guarded((now, handedOver) -> releaseShare(keys.get(0), ownerToken, share, now, handedOver));
		}
		return guarded((now, handedOver) -> {
			int released = 0;
			for (String key : keys) {
				leaveQueue(key, ownerToken);
				if (ownerToken.equals(holder(key, now))) {
					this.leases.remove(key);
					handOn(key, now, null, handedOver);
					released++;
				}
			}
			return released;
		});
	}

	List<Boolean> extend(List<Extension> extensions) {
		return guarded((now, handedOver) -> extensions.stream().map((extension) -> {
			if (OwnerEntries.shareOf(extension.entry()) != null) {
				return extendShare(extension, now);
			}
			boolean owned = extension.entry().equals(holder(extension.key(), now));
			if (owned) {
				// A last lease keeps the lock taken, but no longer as the owner's, so no later extension lengthens it.
				String holder = extension.last() ? OwnerEntries.released(extension.entry()) : extension.entry();
				this.leases.put(extension.key(), new Lease(holder, now + extension.ttl().toNanos()));
			}
			return owned;
		}).toList());
	}

	boolean forceRelease(String key) {
		return guarded((now, handedOver) -> {
			if (holder(key, now) == null) {
				return false;
			}
			this.leases.remove(key);
			this.shareHolders.remove(key);
			handOn(key, now, null, handedOver);
			return true;
		});
	}

	List<StoredLock> storedLocks(int limit) {
		return guarded((now, handedOver) -> this.leases.entrySet()
			.stream()
			.filter((entry) -> entry.getValue().isLiveAt(now))
			.limit(limit)
			.flatMap((entry) -> Stream.ofNullable(storedLock(entry.getKey(), entry.getValue(), now)))
			.toList());
	}

	/** A held lock as the Redis store lists it: a shared one with each holder's own lease, or null once they all ended. */
	private @Nullable StoredLock storedLock(String key, Lease lease, long now) {
		Map<String, Long> holders = this.shareHolders.get(key);
		if (holders == null || holders.isEmpty()) {
			return StoredLock.of(key, Duration.ofNanos(lease.expiresAt - now), OwnerEntries.holderOf(lease.ownerToken));
		}
		Map<String, Duration> leases = new HashMap<>();
		holders.forEach((holder, expiresAt) -> leases.put(OwnerEntries.holderOf(holder), Duration.ofNanos(expiresAt - now)));
		return StoredLock.shared(key, OwnerEntries.typed(lease.ownerToken), leases);
	}

	boolean isLocked(String key) {
		return guarded((now, handedOver) -> holder(key, now) != null);
	}

	int queueLength(String key) {
		return guarded((now, handedOver) -> {
			WaitQueue queue = this.queues.get(key);
			return (queue != null) ? queue.size() : 0;
		});
	}

	/**
	 * After a refusal: waits for {@code busyKey} and is parked in the queues of the other keys that are
	 * held or have waiters, never of a free key, which would keep others from it; a lock that a release
	 * handed to this caller goes on to the next waiter that can use it.
	 */
	private void giveBackAndQueue(List<String> keys, String busyKey, String ownerToken, long queueForNanos, long now,
			List<HandOver> handedOver) {
		for (String key : keys) {
			String holder = holder(key, now);
			boolean handedToCaller = ownerToken.equals(holder);
			if (handedToCaller) {
				this.leases.remove(key);
			}
			if (queueForNanos > 0 && (key.equals(busyKey) || handedToCaller || holder != null || hasWaiters(key, now))) {
				queueOf(key).stand(ownerToken, now + queueForNanos, !key.equals(busyKey), handedToCaller);
			}
			if (handedToCaller || holder == null) {
				handOn(key, now, null, handedOver);
			}
		}
	}

	/**
	 * Finds who may take the free lock: the first live waiter that is not parked, or {@code caller} when it
	 * comes first. A waiter other than the caller is handed the lock and leaves the queue; when the first
	 * asks for a share, the waiters for it are granted together.
	 * @return that waiter's owner token, or {@code null} when nobody but parked waiters waits
	 */
	private @Nullable String handOn(String key, long now, @Nullable String caller, List<HandOver> handedOver) {
		WaitQueue queue = this.queues.get(key);
		String first = (queue != null) ? queue.firstLive(now, caller) : null;
		String share = (first != null) ? OwnerEntries.shareOf(first) : null;
		if (share != null) {
			grantShares(key, share, now, caller, handedOver);
			return share;
		}
		String next = (queue != null) ? queue.firstWhoCanUse(now, caller) : null;
		if (queue != null && queue.isEmpty()) {
			this.queues.remove(key);
		}
		if (next == null || next.equals(caller)) {
			return next;
		}
		this.leases.put(key, new Lease(next, now + this.claimLease.toNanos()));
		handedOver.add(new HandOver(key, next, nextFencingToken()));
		return next;
	}

	private AcquireResult acquireShare(String key, String ownerToken, String share, Duration ttl, Duration queueFor,
			long now, List<HandOver> handedOver) {
		String holder = holder(key, now);
		if (holder == null && hasWaiters(key, now)) {
			holder = handOn(key, now, ownerToken, handedOver);
		}
		boolean admitted = holder == null;
		if (share.equals(holder)) {
			Map<String, Long> holders = liveHolders(key, now);
			boolean waiting = !holders.containsKey(ownerToken) && grantShares(key, share, now, ownerToken, handedOver);
			int permits = OwnerEntries.permitsOf(share);
			admitted = holders.containsKey(ownerToken) || (!waiting && (permits == 0 || holders.size() < permits));
		}
		else if (holder != null && OwnerEntries.permitsOf(holder) > 0 && OwnerEntries.permitsOf(share) > 0) {
			throw OwnerEntries.permitsMismatch(key, OwnerEntries.permitsOf(share), OwnerEntries.permitsOf(holder));
		}
		if (admitted) {
			liveHolders(key, now).put(ownerToken, now + ttl.toNanos());
			leaveQueue(key, ownerToken);
			keepShared(key, share, now);
			return AcquireResult.granted(Map.of(key, nextFencingToken()));
		}
		if (queueFor.toNanos() > 0) {
			queueOf(key).stand(ownerToken, now + queueFor.toNanos(), false, false);
		}
		long freesAt = share.equals(holder) ? liveHolders(key, now).values().stream().min(Long::compare).orElse(now)
				: this.leases.get(key).expiresAt;
		return AcquireResult.busy(key, Duration.ofNanos(Math.max(0, freesAt - now)), this.lastFencingToken);
	}

	private int releaseShare(String key, String ownerToken, String share, long now, List<HandOver> handedOver) {
		leaveQueue(key, ownerToken);
		if (!share.equals(holder(key, now))) {
			return 0;
		}
		Map<String, Long> holders = liveHolders(key, now);
		boolean released = holders.remove(ownerToken) != null;
		if (holders.isEmpty()) {
			this.leases.remove(key);
			this.shareHolders.remove(key);
			handOn(key, now, null, handedOver);
		}
		else {
			grantShares(key, share, now, null, handedOver);
		}
		return released ? 1 : 0;
	}

	/** Extends a share's own lease only; a last lease keeps the share taken, no longer under its token. */
	private boolean extendShare(Extension extension, long now) {
		String key = extension.key();
		String share = OwnerEntries.shareOf(extension.entry());
		Map<String, Long> holders = share.equals(holder(key, now)) ? liveHolders(key, now) : Map.of();
		if (!holders.containsKey(extension.entry())) {
			return false;
		}
		if (extension.last()) {
			holders.remove(extension.entry());
		}
		holders.put(extension.last() ? OwnerEntries.released(extension.entry()) : extension.entry(),
				now + extension.ttl().toNanos());
		keepShared(key, share, now);
		return true;
	}

	/**
	 * Grants {@code share} to the waiters at the head of the queue, up to the first live waiter for something
	 * else and while permits are left, each under the claim lease with a fencing token, handed over to it;
	 * {@code caller} without either, as its own call answers it.
	 * @return whether a live waiter is left that could not be granted
	 */
	private boolean grantShares(String key, String share, long now, @Nullable String caller,
			List<HandOver> handedOver) {
		Map<String, Long> holders = liveHolders(key, now);
		int permits = OwnerEntries.permitsOf(share);
		WaitQueue queue = this.queues.get(key);
		boolean waiting = false;
		for (String waiter = (queue != null) ? queue.firstLive(now, caller) : null; waiter != null;
				waiter = queue.firstLive(now, caller)) {
			if (!share.equals(OwnerEntries.shareOf(waiter)) || (permits > 0 && holders.size() >= permits)) {
				waiting = true;
				break;
			}
			leaveQueue(key, waiter);
			holders.put(waiter, now + this.claimLease.toNanos());
			if (!waiter.equals(caller)) {
				handedOver.add(new HandOver(key, waiter, nextFencingToken()));
			}
		}
		keepShared(key, share, now);
		return waiting;
	}

	/** The holders of a shared lock whose own lease still runs. */
	private Map<String, Long> liveHolders(String key, long now) {
		Map<String, Long> holders = this.shareHolders.computeIfAbsent(key, (k) -> new HashMap<>());
		holders.values().removeIf((expiresAt) -> expiresAt - now <= 0);
		return holders;
	}

	/** Keeps a shared lock as long as its longest share, or frees it when no share is left. */
	private void keepShared(String key, String share, long now) {
		Map<String, Long> holders = liveHolders(key, now);
		if (holders.isEmpty()) {
			this.leases.remove(key);
			this.shareHolders.remove(key);
		}
		else {
			this.leases.put(key, new Lease(share, holders.values().stream().max(Long::compare).orElseThrow()));
		}
	}

	private WaitQueue queueOf(String key) {
		return this.queues.computeIfAbsent(key, (k) -> new WaitQueue());
	}

	private void leaveQueue(String key, String ownerToken) {
		this.queues.computeIfPresent(key, (k, queue) -> {
			queue.leave(ownerToken);
			return queue.isEmpty() ? null : queue;
		});
	}

	private @Nullable String holder(String key, long now) {
		Lease lease = this.leases.get(key);
		if (lease != null && !lease.isLiveAt(now)) {
			this.leases.remove(key);
			this.shareHolders.remove(key);
			return null;
		}
		return (lease != null) ? lease.ownerToken : null;
	}

	private boolean hasWaiters(String key, long now) {
		WaitQueue queue = this.queues.get(key);
		if (queue == null) {
			return false;
		}
		queue.dropExpired(now);
		if (queue.isEmpty()) {
			this.queues.remove(key);
			return false;
		}
		return true;
	}

	/** Strictly increasing across every key, and never below the wall clock in microseconds, like Redis's. */
	private long nextFencingToken() {
		long clockMicros = TimeUnit.MILLISECONDS.toMicros(System.currentTimeMillis());
		this.lastFencingToken = Math.max(this.lastFencingToken + 1, clockMicros);
		return this.lastFencingToken;
	}

	/** Runs {@code operation} under the guard, then tells the waiters what it handed over. */
	private <T> T guarded(Operation<T> operation) {
		List<HandOver> handedOver = new ArrayList<>();
		T result;
		this.guard.lock();
		try {
			result = operation.run(System.nanoTime(), handedOver);
		}
		finally {
			this.guard.unlock();
		}
		handedOver.forEach(
				(handOver) -> this.notifications.handedOver(handOver.key, OwnerEntries.tokenOf(handOver.ownerToken), this.claimLease,
						handOver.fencingToken));
		return result;
	}


	@FunctionalInterface
	private interface Operation<T> {

		T run(long nowNanos, List<HandOver> handedOver);

	}

	private record HandOver(String key, String ownerToken, long fencingToken) {
	}

	/** A lease to extend, with its owner's entry. */
	record Extension(String key, String entry, Duration ttl, boolean last) {
	}

	/** Who holds a lock, and until when on the {@link System#nanoTime()} clock. */
	private record Lease(String ownerToken, long expiresAt) {

		boolean isLiveAt(long now) {
			return this.expiresAt - now > 0;
		}

	}

	/** The waiters of one key, first come first, each with its deadline; parked waiters are passed over. */
	private static final class WaitQueue {

		private final Deque<String> order = new ArrayDeque<>();

		private final Map<String, Long> deadlines = new HashMap<>();

		private final Set<String> parked = new HashSet<>();

		/** Joins at the tail, or at the head, unless already waiting; then sets the deadline and whether parked. */
		void stand(String ownerToken, long deadline, boolean park, boolean atHead) {
			if (this.deadlines.put(ownerToken, deadline) == null) {
				if (atHead) {
					this.order.addFirst(ownerToken);
				}
				else {
					this.order.addLast(ownerToken);
				}
			}
			if (park) {
				this.parked.add(ownerToken);
			}
			else {
				this.parked.remove(ownerToken);
			}
		}

		void leave(String ownerToken) {
			if (this.deadlines.remove(ownerToken) != null) {
				this.order.remove(ownerToken);
				this.parked.remove(ownerToken);
			}
		}

		/**
		 * The first waiter still waiting that is not parked, taken out, or {@code caller} when it comes
		 * first, left in; drops those whose deadline passed.
		 */
		@Nullable String firstWhoCanUse(long now, @Nullable String caller) {
			Iterator<String> waiters = this.order.iterator();
			while (waiters.hasNext()) {
				String waiter = waiters.next();
				if (waiter.equals(caller)) {
					return caller;
				}
				boolean live = this.deadlines.get(waiter) - now > 0;
				if (!live || !this.parked.contains(waiter)) {
					waiters.remove();
					this.deadlines.remove(waiter);
					this.parked.remove(waiter);
					if (live) {
						return waiter;
					}
				}
			}
			return null;
		}

		/**
		 * The first waiter still waiting that is not parked, or {@code caller} when it comes first, left in;
		 * drops those whose deadline passed.
		 */
		@Nullable String firstLive(long now, @Nullable String caller) {
			Iterator<String> waiters = this.order.iterator();
			while (waiters.hasNext()) {
				String waiter = waiters.next();
				if (waiter.equals(caller)) {
					return caller;
				}
				if (this.deadlines.get(waiter) - now <= 0) {
					waiters.remove();
					this.deadlines.remove(waiter);
					this.parked.remove(waiter);
				}
				else if (!this.parked.contains(waiter)) {
					return waiter;
				}
			}
			return null;
		}

		void dropExpired(long now) {
			this.order.removeIf((ownerToken) -> {
				boolean expired = this.deadlines.get(ownerToken) - now <= 0;
				if (expired) {
					this.deadlines.remove(ownerToken);
					this.parked.remove(ownerToken);
				}
				return expired;
			});
		}

		boolean isEmpty() {
			return this.order.isEmpty();
		}

		int size() {
			return this.order.size();
		}

	}

}
