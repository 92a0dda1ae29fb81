package dev.locksmith.core;

import java.lang.reflect.UndeclaredThrowableException;
import java.util.List;
import java.util.concurrent.Callable;

import dev.locksmith.core.internal.HeldLock;
import dev.locksmith.core.internal.KeyMasking;
import dev.locksmith.core.internal.LockFrames;
import dev.locksmith.core.internal.Shares;

/**
 * {@link LockService#callLocked} for every lock service: runs an action under a lock that is this
 * thread's {@link LockContext} meanwhile, so nested locked calls through the same service hold it again.
 */
final class LockedCall {

	private LockedCall() {
	}

	/** Acquires the lock of {@code key} from {@code locks}, runs {@code action} under it, and releases it. */
	static <T> T call(LockService locks, String key, LockOptions options, Callable<T> action) {
		try (LockHandle handle = locks.acquire(key, options);
				LockFrames.Scope scope = LockFrames
					.enter(new HeldLock(locks, handle, List.of(key), Shares.shareOf(options)), null)) {
			T result = action.call();
			if (!handle.isHeld()) {
				throw new LockLostException(handle);
			}
			return result;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new DistributedLockException("Interrupted while waiting for lock '" + KeyMasking.mask(key) + "'", ex);
		}
		catch (RuntimeException | Error ex) {
			throw ex;
		}
		catch (Exception ex) {
			throw new UndeclaredThrowableException(ex);
		}
	}

}
