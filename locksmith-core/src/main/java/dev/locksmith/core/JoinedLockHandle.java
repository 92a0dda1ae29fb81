package dev.locksmith.core;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.stream.Collectors;

/**
 * Several holds acting as one handle, for a nested call whose keys are partly held by the running
 * call and partly acquired for it: closing it ends every part. Not API.
 */
final class JoinedLockHandle implements LockHandle, HolderAware {

	private final List<LockHandle> parts;

	JoinedLockHandle(List<LockHandle> parts) {
		this.parts = List.copyOf(parts);
	}

	@Override
	public String key() {
		return this.parts.stream().map(LockHandle::key).collect(Collectors.joining(","));
	}

	@Override
	public Map<String, Long> fencingTokens() {
		Map<String, Long> tokens = new TreeMap<>();
		this.parts.forEach((part) -> tokens.putAll(part.fencingTokens()));
		return Collections.unmodifiableMap(tokens);
	}

	@Override
	public Instant acquiredAt() {
		return this.parts.stream().map(LockHandle::acquiredAt).min(Comparator.naturalOrder()).orElseThrow();
	}

	@Override
	public Instant expiresAt() {
		return this.parts.stream().map(LockHandle::expiresAt).min(Comparator.naturalOrder()).orElseThrow();
	}

	@Override
	public boolean isHeld() {
		return this.parts.stream().allMatch(LockHandle::isHeld);
	}

	/** Completes when any part is found lost. */
	@Override
	public CompletionStage<Void> lost() {
		CompletableFuture<?>[] parts = this.parts.stream()
			.map((part) -> part.lost().toCompletableFuture())
			.toArray(CompletableFuture[]::new);
		return CompletableFuture.anyOf(parts).thenApply((ignored) -> null);
	}

	@Override
	public boolean extend(Duration ttl) {
		boolean extended = true;
		for (LockHandle part : this.parts) {
			extended &= part.extend(ttl);
		}
		return extended;
	}

	@Override
	public LockHandle hold() {
		List<LockHandle> holds = new ArrayList<>();
		try {
			for (LockHandle part : this.parts) {
				holds.add(part.hold());
			}
			return new JoinedLockHandle(holds);
		}
		catch (RuntimeException ex) {
			holds.forEach(LockHandle::close);
			throw ex;
		}
	}

	@Override
	public void describeHolder(String holder) {
		for (LockHandle part : this.parts) {
			if (part instanceof HolderAware aware) {
				aware.describeHolder(holder);
			}
		}
	}

	@Override
	public void close() {
		this.parts.forEach(LockHandle::close);
	}

	@Override
	public String toString() {
		return "JoinedLockHandle" + this.parts;
	}

}
