package dev.locksmith.aop;

import java.util.List;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import dev.locksmith.annotation.OnBusy;
import dev.locksmith.core.DistributedLockException;
import dev.locksmith.core.LockBusyException;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockService;

/** Acquires the locks of an annotated call, applying its {@link OnBusy} policy. */
final class LockAcquisition {

	private final Supplier<LockService> locks;

	LockAcquisition(Supplier<LockService> locks) {
		this.locks = locks;
	}

	/**
	 * The handle for all {@code keys}, or {@code null} when they stayed busy and the policy is
	 * {@link OnBusy#SKIP}.
	 * @throws LockBusyException when they stayed busy and the policy is {@link OnBusy#THROW}
	 */
	@Nullable LockHandle acquire(LockDefinition definition, List<String> keys) {
		try {
			LockHandle handle = this.locks.get().tryAcquireAll(keys, definition.options()).orElse(null);
			if (handle == null && definition.onBusy() == OnBusy.THROW) {
				throw new LockBusyException(String.join(",", keys), definition.options().waitTime());
			}
			return handle;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new DistributedLockException("Interrupted while " + definition.method() + " waited for lock "
					+ String.join(",", keys), ex);
		}
	}

}
