package dev.locksmith.redis;

import java.time.Duration;
import java.util.List;

import dev.locksmith.core.LockOwner;
import dev.locksmith.core.LockShare;
import dev.locksmith.core.LockStore.AcquireRequest;

/** Owners for tests that call a store directly, written as the scripts keep them: {@code @read/<token>}. */
final class TestOwners {

	private TestOwners() {
	}

	/** The owner whose script entry is {@code entry}: a token, or a token after {@code @read/} or {@code @permits=<n>/}. */
	static LockOwner owner(String entry) {
		if (entry.startsWith("@read/")) {
			return new LockOwner(entry.substring("@read/".length()), LockShare.READ);
		}
		if (entry.startsWith("@permits=")) {
			int slash = entry.indexOf('/');
			return new LockOwner(entry.substring(slash + 1),
					LockShare.permits(Integer.parseInt(entry.substring("@permits=".length(), slash))));
		}
		return LockOwner.exclusive(entry);
	}

	/** A request of the owner whose script entry is {@code entry}. */
	static AcquireRequest request(List<String> keys, String entry, Duration ttl, Duration queueFor) {
		return new AcquireRequest(keys, owner(entry), ttl, queueFor);
	}

}
