package dev.locksmith.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;

import org.jspecify.annotations.Nullable;

import dev.locksmith.core.ForwardingStore;
import dev.locksmith.core.LockAdministration.StoredLock;
import dev.locksmith.core.LockOwner;
import dev.locksmith.core.LockStore;
import dev.locksmith.core.ReleaseNotifications.Listener;
import dev.locksmith.test.inmemory.InMemoryLockBackend;
import dev.locksmith.test.inmemory.InMemoryStoreProbe;

/**
 * A {@link ScenarioStore} on one {@link InMemoryLockBackend} that every engine shares, as the processes
 * of a fleet share one Redis. Its calls are the engines' {@code tryAcquire}, {@code release} and each
 * lease of {@code extend}, counted by a wrapper around the store, against the bounds of one Redis. Its
 * state comes from the store's public API and its queue lengths: it tells whether a key is held, not by
 * whom ({@link ScenarioStore.State#UNNAMED}), and keeps no entry without an end.
 */
final class InMemoryScenarioStore implements ScenarioStore {

	/** Every key a generated scenario may lock. */
	private static final List<String> KEYS = IntStream.range(0, 4).mapToObj(QueueScenario::key).toList();

	private final AtomicLong calls = new AtomicLong();

	private volatile InMemoryLockBackend store = new InMemoryLockBackend();

	@Override
	public LockEngines engines(int count, Duration recheckInterval) {
		InMemoryLockBackend shared = this.store;
		return new LockEngines(count, recheckInterval, () -> new LockEngines.Connected(new Counting(shared),
				shared.notifications(), () -> {
				}));
	}

	@Override
	public void flush() {
		this.store = new InMemoryLockBackend();
	}

	@Override
	public void resetStats() {
		this.calls.set(0);
	}

	@Override
	public long calls() {
		return this.calls.get();
	}

	@Override
	public String callsName() {
		return "store calls";
	}

	@Override
	public int boundScale() {
		return 1;
	}

	@Override
	public State state() {
		InMemoryLockBackend shared = this.store;
		Map<String, StoredLock> stored = new LinkedHashMap<>();
		shared.administration().storedLocks(Integer.MAX_VALUE).join().forEach((lock) -> stored.put(lock.key(), lock));
		Map<String, Integer> queued = new LinkedHashMap<>();
		KEYS.forEach((key) -> queued.put(key, InMemoryStoreProbe.queueLength(shared, key)));
		return new Snapshot(TimeUnit.NANOSECONDS.toMillis(System.nanoTime()), stored, queued);
	}

	/** The store's locks and queue lengths at one moment. */
	private record Snapshot(long clockMillis, Map<String, StoredLock> stored, Map<String, Integer> queued)
			implements State {

		@Override
		public @Nullable String holder(String key) {
			return this.stored.containsKey(key) ? UNNAMED : null;
		}

		@Override
		public boolean namesHolders() {
			return false;
		}

		@Override
		public List<String> withoutTtl() {
			return List.of();
		}

		/** Every waiter still queued: the store does not tell their deadlines. */
		@Override
		public List<String> queuedAfter(long clockMillis) {
			List<String> live = new ArrayList<>();
			this.queued.forEach((key, length) -> {
				if (length > 0) {
					live.add("'" + key + "': " + length + " queued");
				}
			});
			return live;
		}

		@Override
		public String lease(String key) {
			StoredLock lock = this.stored.get(key);
			return (lock != null) ? lock.remainingTtl().toMillis() + "ms left" : "free";
		}

		@Override
		public String describe(List<String> keys) {
			StringBuilder text = new StringBuilder();
			for (String key : keys) {
				StoredLock lock = this.stored.get(key);
				text.append(key)
					.append("={holder=")
					.append((lock != null) ? lock.holderInstance() + " for " + lease(key) : null)
					.append(", queued=")
					.append(this.queued.getOrDefault(key, 0))
					.append("} ");
			}
			return text.toString().trim();
		}

	}

	/** The shared store, counting each acquire, release and lease extension an engine asks of it. */
	private final class Counting extends ForwardingStore {

		Counting(LockStore store) {
			super(store);
		}

		@Override
		public CompletableFuture<AcquireResult> tryAcquire(AcquireRequest request) {
			InMemoryScenarioStore.this.calls.incrementAndGet();
			return super.tryAcquire(request);
		}

		@Override
		public CompletableFuture<Integer> release(List<String> keys, LockOwner owner, Listener handOvers) {
			InMemoryScenarioStore.this.calls.incrementAndGet();
			return super.release(keys, owner, handOvers);
		}

		@Override
		public List<CompletableFuture<Boolean>> extend(List<LeaseExtension> leases) {
			InMemoryScenarioStore.this.calls.addAndGet(leases.size());
			return super.extend(leases);
		}

	}

}
