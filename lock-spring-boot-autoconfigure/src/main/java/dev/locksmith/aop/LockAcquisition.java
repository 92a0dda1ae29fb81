package dev.locksmith.aop;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.locksmith.annotation.OnBusy;
import dev.locksmith.core.DistributedLockException;
import dev.locksmith.core.LockBusyException;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockService;
import dev.locksmith.core.LockUnavailableException;
import dev.locksmith.core.internal.HeldLock;
import dev.locksmith.core.internal.KeyMasking;
import dev.locksmith.core.internal.LockFrames;

/**
 * Acquires the locks of an annotated call: keys that the running call already holds get one more
 * hold, without a round trip; the rest are acquired together, all or nothing, under the call's
 * {@link OnBusy} policy. A skip is logged at DEBUG with the lock's name, never its key; an unavailable
 * store once per lock name and outage (see {@link LockOutageLog}).
 */
final class LockAcquisition {

	private static final Log logger = LogFactory.getLog(LockAcquisition.class);

	private final Supplier<LockService> locks;

	private final LockOutageLog outages = new LockOutageLog();

	LockAcquisition(Supplier<LockService> locks) {
		this.locks = locks;
	}

	/** The lock service that grants this call's locks, and owns the holds of its nested calls. */
	LockService owner() {
		return this.locks.get();
	}

	/** The lock of a call that {@code handle} holds {@code keys} for. */
	HeldLock heldLock(LockHandle handle, List<String> keys) {
		return new HeldLock(owner(), handle, keys);
	}

	/** Makes {@code handle} the current lock of this thread while the method of {@code definition} runs. */
	LockFrames.Scope enter(LockHandle handle, LockDefinition definition, List<String> keys) {
		return LockFrames.enter(heldLock(handle, keys), definition.method());
	}

	/** Whether acquiring {@code keys} under the {@code held} locks asks the store: some key is not held yet. */
	boolean needsRoundTrip(List<String> keys, List<HeldLock> held) {
		return !missing(keys, held).isEmpty();
	}

	/**
	 * The handle for all {@code keys}, or {@code null} when the missing ones stayed busy and the
	 * policy is {@link OnBusy#SKIP}.
	 * @param held the locks of the running call, outermost first
	 * @throws LockBusyException when the missing keys stayed busy and the policy is {@link OnBusy#THROW}
	 */
	@Nullable LockHandle acquire(LockDefinition definition, List<String> keys, List<HeldLock> held) {
		List<LockHandle> parts = holdAgain(keys, held);
		try {
			List<String> missing = missing(keys, held);
			if (!missing.isEmpty()) {
				LockHandle acquired = acquireMissing(definition, missing);
				if (acquired == null) {
					parts.forEach(LockHandle::close);
					return null;
				}
				parts.add(acquired);
			}
		}
		catch (RuntimeException ex) {
			parts.forEach(LockHandle::close);
			throw ex;
		}
		return (parts.size() == 1) ? parts.get(0) : new JoinedLockHandle(parts);
	}

	private List<LockHandle> holdAgain(List<String> keys, List<HeldLock> held) {
		Set<LockHandle> holding = Collections.newSetFromMap(new IdentityHashMap<>());
		for (String key : keys) {
			HeldLock lock = find(key, held);
			if (lock != null) {
				holding.add(lock.handle());
			}
		}
		List<LockHandle> holds = new ArrayList<>();
		try {
			for (LockHandle handle : holding) {
				holds.add(handle.hold());
			}
		}
		catch (RuntimeException ex) {
			holds.forEach(LockHandle::close);
			throw ex;
		}
		return holds;
	}

	private List<String> missing(List<String> keys, List<HeldLock> held) {
		return keys.stream().filter((key) -> find(key, held) == null).toList();
	}

	private @Nullable HeldLock find(String key, List<HeldLock> held) {
		LockService owner = owner();
		for (int i = held.size() - 1; i >= 0; i--) {
			if (held.get(i).holds(owner, key)) {
				return held.get(i);
			}
		}
		return null;
	}

	private @Nullable LockHandle acquireMissing(LockDefinition definition, List<String> keys) {
		try {
			LockHandle handle = tryAcquireAll(definition, keys);
			if (handle == null && definition.onBusy() == OnBusy.THROW) {
				throw new LockBusyException(definition.name(), String.join(",", keys), definition.options().waitTime());
			}
			if (handle == null && logger.isDebugEnabled()) {
				logger.debug("Skipped " + definition.method() + ": lock '" + definition.name() + "' is busy");
			}
			return handle;
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException("@DistributedLock on " + definition.method() + ": key expression '"
					+ definition.keySource() + "' gave a key the lock service refuses: " + ex.getMessage()
					+ "; the method was not run", ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new DistributedLockException("Interrupted while " + definition.method() + " waited for lock "
					+ KeyMasking.mask(definition.name(), keys.get(0)), ex);
		}
	}

	/**
	 * Asks the store, naming the lock in the exception when the store is unavailable, and logging that
	 * once per lock name and outage.
	 */
	private @Nullable LockHandle tryAcquireAll(LockDefinition definition, List<String> keys)
			throws InterruptedException {
		LockHandle handle;
		try {
			handle = this.locks.get().tryAcquireAll(keys, definition.options()).orElse(null);
		}
		catch (LockUnavailableException ex) {
			this.outages.unavailable(definition.name(), definition.method(), ex);
			throw new LockUnavailableException("Lock '" + definition.name() + "' is unavailable for "
					+ definition.method() + ": " + ex.getMessage(), ex);
		}
		this.outages.available();
		return handle;
	}

}
