package dev.locksmith.test.inmemory;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.jspecify.annotations.Nullable;

import dev.locksmith.core.FencedValues;

/**
 * {@link FencedValues} in this JVM's memory, with the rules of the Redis ones: a write is applied only
 * when its fencing token is at least the highest one its key has seen. For tests, never for production.
 *
 * @since 0.1.0
 */
public final class InMemoryFencedValues implements FencedValues {

	private final Map<String, Fenced> values = new ConcurrentHashMap<>();

	@Override
	public boolean write(String key, String value, long fencingToken) {
		boolean[] applied = new boolean[1];
		this.values.compute(key, (k, seen) -> {
			applied[0] = seen == null || fencingToken >= seen.token();
			return applied[0] ? new Fenced(value, fencingToken) : seen;
		});
		return applied[0];
	}

	@Override
	public @Nullable String read(String key) {
		Fenced fenced = this.values.get(key);
		return (fenced != null) ? fenced.value() : null;
	}

	@Override
	public long highestToken(String key) {
		Fenced fenced = this.values.get(key);
		return (fenced != null) ? fenced.token() : 0;
	}

	/** A value and the fencing token of its last write. */
	private record Fenced(String value, long token) {
	}

}
