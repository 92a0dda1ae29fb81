package dev.locksmith.redis;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import dev.locksmith.core.LockAdministration.StoredLock;
import dev.locksmith.test.inmemory.InMemoryLockBackend;
import dev.locksmith.test.inmemory.InMemoryStoreProbe;

/**
 * A {@link ScenarioStore} on one {@link InMemoryLockBackend} that every engine shares, as the processes
 * of a fleet share one Redis. Its calls are the engines' {@code tryAcquire}, {@code release} and each
 * lease of {@code extend}, counted by a wrapper around the store, against the bounds of one Redis. Its
 * state comes from the store's public API and its queue lengths: it tells whether a key is held, not by
 * whom ({@link ScenarioStore.State#UNNAMED}), and keeps no entry without an end.
 */
final class InMemoryScenarioStore extends CountedScenarioStore {

	/** Every key a generated scenario may lock. */
	private static final List<String> KEYS = IntStream.range(0, 4).mapToObj(QueueScenario::key).toList();

	private volatile InMemoryLockBackend store = new InMemoryLockBackend();

	@Override
	public LockEngines engines(int count, Duration recheckInterval) {
		InMemoryLockBackend shared = this.store;
		return new LockEngines(count, recheckInterval, () -> new LockEngines.Connected(new CountingStore(shared, this.calls),
				shared.notifications(), () -> {
				}));
	}

	@Override
	public void flush() {
		this.store = new InMemoryLockBackend();
	}

	@Override
	public State state() {
		InMemoryLockBackend shared = this.store;
		Map<String, StoredLock> stored = new LinkedHashMap<>();
		shared.administration().storedLocks(Integer.MAX_VALUE).join().forEach((lock) -> stored.put(lock.key(), lock));
		Map<String, Integer> queued = new LinkedHashMap<>();
		KEYS.forEach((key) -> queued.put(key, InMemoryStoreProbe.queueLength(shared, key)));
		return new UnnamedHoldersState(TimeUnit.NANOSECONDS.toMillis(System.nanoTime()), stored, queued);
	}

}
