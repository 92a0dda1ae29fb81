package dev.locksmith.core;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Decorator that bounds every backend call by a timeout and turns an unanswered call into a
 * {@link LockUnavailableException}; a grant that arrives after its caller gave up is released.
 *
 * @since 0.1.0
 */
public final class TimeBoundedLockBackend implements LockBackend, AutoCloseable {

	private final LockBackend delegate;

	private final TimeLimit timeLimit;

	public TimeBoundedLockBackend(LockBackend delegate, Duration timeout) {
		this.delegate = delegate;
		this.timeLimit = new TimeLimit(timeout);
	}

	@Override
	public AcquireResult tryAcquire(List<String> keys, String ownerToken, Duration ttl) {
		CompletableFuture<AcquireResult> call = this.timeLimit
			.start(() -> this.delegate.tryAcquire(keys, ownerToken, ttl));
		try {
			return this.timeLimit.await(call, "acquire of " + LockKeys.describe(keys));
		}
		catch (LockUnavailableException ex) {
			call.thenAccept((late) -> releaseLateGrant(late, keys, ownerToken));
			throw ex;
		}
	}

	@Override
	public int release(List<String> keys, String ownerToken) {
		return this.timeLimit.call(() -> this.delegate.release(keys, ownerToken), "release of " + LockKeys.describe(keys));
	}

	@Override
	public List<Boolean> extend(List<LeaseExtension> leases) {
		return this.timeLimit.call(() -> this.delegate.extend(leases),
				"extend of " + LockKeys.describe(leases.stream().map(LeaseExtension::key).toList()));
	}

	@Override
	public void close() {
		this.timeLimit.close();
	}

	private void releaseLateGrant(AcquireResult late, List<String> keys, String ownerToken) {
		if (late.acquired()) {
			this.delegate.release(keys, ownerToken);
		}
	}

}
