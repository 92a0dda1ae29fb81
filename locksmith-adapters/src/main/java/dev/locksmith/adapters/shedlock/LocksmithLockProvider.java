package dev.locksmith.adapters.shedlock;

import java.util.Optional;

import net.javacrumbs.shedlock.core.ExtensibleLockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;

import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockService;
import dev.locksmith.core.LockUnavailableException;

/**
 * A ShedLock {@link ExtensibleLockProvider} on a Locksmith {@link LockService}: {@code @SchedulerLock}
 * methods and {@code LockingTaskExecutor} calls keep their code and lock through Locksmith.
 * <p>
 * The lock's key is ShedLock's lock name. {@code lockAtMostFor} is the lease, never renewed, as ShedLock
 * users expect; {@code lockAtLeastFor} is the lock's minimum hold, so that an early unlock leaves the lock
 * taken until it ends. The provider never waits: a busy lock gives an empty result, and an unreachable
 * store a {@link LockUnavailableException}, so the task does not run.
 *
 * @since 0.1.0
 */
public final class LocksmithLockProvider implements ExtensibleLockProvider {

	private final LockService locks;

	/** A provider that takes its locks from {@code locks}. */
	public LocksmithLockProvider(LockService locks) {
		this.locks = locks;
	}

	@Override
	public Optional<SimpleLock> lock(LockConfiguration configuration) {
		LockOptions options = LockOptions.ofTtl(configuration.getLockAtMostFor())
			.withRenew(false)
			.withHoldAtLeast(configuration.getLockAtLeastFor());
		try {
			return this.locks.tryAcquire(configuration.getName(), options)
				.map((handle) -> new LocksmithSimpleLock(handle, configuration, false));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return Optional.empty();
		}
	}

}
