package dev.locksmith.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import dev.locksmith.core.LockAdministration.StoredLock;

/**
 * What a store that tells whether a key is held, but not by whom, holds at one moment: its locks as its
 * administration lists them and the length of each key's queue of live waiters. Every entry has an end.
 */
record UnnamedHoldersState(long clockMillis, Map<String, StoredLock> stored, Map<String, Integer> queued)
		implements ScenarioStore.State {

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

	/** Every waiter still queued: the state does not carry their deadlines. */
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
