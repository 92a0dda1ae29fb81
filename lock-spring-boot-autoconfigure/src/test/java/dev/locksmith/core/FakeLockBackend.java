package dev.locksmith.core;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * A store that answers at once, for tests of the engine's in-process concurrency: grants every
 * acquisition, counts releases, and answers each extension as {@code extensions} says.
 */
final class FakeLockBackend implements LockStore {

	private final AtomicInteger releases = new AtomicInteger();

	private final AtomicInteger extensionCalls = new AtomicInteger();

	private final Function<LeaseExtension, CompletableFuture<Boolean>> extensions;

	private volatile Runnable onRelease = () -> {
	};

	FakeLockBackend() {
		this((lease) -> CompletableFuture.completedFuture(true));
	}

	FakeLockBackend(Function<LeaseExtension, CompletableFuture<Boolean>> extensions) {
		this.extensions = extensions;
	}

	/** Runs {@code check} on the releasing thread, inside each release call. */
	FakeLockBackend onRelease(Runnable check) {
		this.onRelease = check;
		return this;
	}

	int releases() {
		return this.releases.get();
	}

	int extensionCalls() {
		return this.extensionCalls.get();
	}

	@Override
	public CompletableFuture<AcquireResult> tryAcquire(AcquireRequest request) {
		Map<String, Long> tokens = new LinkedHashMap<>();
		request.keys().forEach((key) -> tokens.put(key, 1L));
		return CompletableFuture.completedFuture(AcquireResult.granted(tokens));
	}

	@Override
	public CompletableFuture<Integer> release(List<String> keys, LockOwner owner, ReleaseNotifications.Listener handOvers) {
		this.releases.incrementAndGet();
		this.onRelease.run();
		return CompletableFuture.completedFuture(keys.size());
	}

	@Override
	public List<CompletableFuture<Boolean>> extend(List<LeaseExtension> leases) {
		this.extensionCalls.incrementAndGet();
		return leases.stream().map(this.extensions).toList();
	}

	@Override
	public CompletableFuture<Boolean> isLocked(String key) {
		return CompletableFuture.completedFuture(false);
	}

	/** Holds nothing an operator could see. */
	@Override
	public StoreAdministration administration() {
		return new StoreAdministration() {

			@Override
			public String storeDescription() {
				return "fake";
			}

			@Override
			public CompletableFuture<Void> ping() {
				return CompletableFuture.completedFuture(null);
			}

			@Override
			public CompletableFuture<List<LockAdministration.StoredLock>> storedLocks(int limit) {
				return CompletableFuture.completedFuture(List.of());
			}

			@Override
			public CompletableFuture<Boolean> forceRelease(String key) {
				return CompletableFuture.completedFuture(false);
			}

		};
	}

}
