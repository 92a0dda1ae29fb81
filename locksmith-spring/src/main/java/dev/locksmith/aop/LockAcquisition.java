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
import dev.locksmith.core.internal.OutageLog;
import dev.locksmith.core.internal.Shares;

/**
 * Acquires the locks of an annotated call: keys that the running call already holds get one more
 * hold, without a round trip; the rest are acquired together, all or nothing, under the call's
 * {@link OnBusy} policy. A skip is logged at DEBUG with the lock's name, never its key; an unavailable
 * store once per lock name and outage (see {@link OutageLog}).
 */
final class LockAcquisition {

	private static final Log logger = LogFactory.getLog(LockAcquisition.class);

	private final Supplier<LockService> locks;

	private final OutageLog outages = new OutageLog(System.getLogger(LockAcquisition.class.getName()),
			"Locking is back");

	LockAcquisition(Supplier<LockService> locks) {
		this.locks = locks;
	}

	/** The lock service that grants this call's locks, and owns the holds of its nested calls. */
	LockService owner() {
		return this.locks.get();
	}

	/** The lock of a call that {@code handle} holds {@code keys} for, as {@code definition} asked. */
	HeldLock heldLock(LockHandle handle, LockDefinition definition, List<String> keys) {
		return new HeldLock(owner(), handle, keys, Shares.shareOf(definition.options()));
	}

	/** Makes {@code handle} the current lock of this thread while the method of {@code definition} runs. */
	LockFrames.Scope enter(LockHandle handle, LockDefinition definition, List<String> keys) {
		return LockFrames.enter(heldLock(handle, definition, keys), definition.method());
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
		List<LockHandle> parts = holdAgain(definition, keys, held);
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

	/**
	 * One more hold of every held lock that {@code keys} need. A write lock covers any nested call; a share
	 * covers only a nested call for the same share.
	 * @throws IllegalStateException when a nested call asks for more than a held share
	 */
	private List<LockHandle> holdAgain(LockDefinition definition, List<String> keys, List<HeldLock> held) {
		Set<LockHandle> holding = Collections.newSetFromMap(new IdentityHashMap<>());
		String share = Shares.shareOf(definition.options());
		for (String key : keys) {
			HeldLock lock = find(key, held);
			if (lock != null && lock.share() != null && !lock.share().equals(share)) {
				throw new IllegalStateException(nestedShareMessage(definition, key, lock.share(), share));
			}
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

	private static String nestedShareMessage(LockDefinition definition, String key, String held,
			@Nullable String asked) {
		String message = definition.method() + " asks for lock '" + KeyMasking.mask(key) + "' as "
				+ Shares.holderOf(asked) + " while this thread holds it as " + Shares.holderOf(held);
		if (asked == null) {
			return message + ": a read lock cannot be upgraded, as two readers that both upgrade would each wait "
					+ "for the other forever; take the write lock from the start";
		}
		return message + "; a nested call may ask for the same share, or for less than a write lock holds";
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
			LockHandle handle = ask(definition, keys);
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
	 * Asks the store: a busy lock throws (with the store's retry hint) or gives {@code null}, as the
	 * definition says. When the store is unavailable, the exception names the lock, and that is logged
	 * once per lock name and outage.
	 */
	private @Nullable LockHandle ask(LockDefinition definition, List<String> keys) throws InterruptedException {
		LockService locks = this.locks.get();
		LockHandle handle;
		try {
			handle = (definition.onBusy() == OnBusy.THROW) ? locks.acquireAll(keys, definition.options())
					: locks.tryAcquireAll(keys, definition.options()).orElse(null);
		}
		catch (LockUnavailableException ex) {
			this.outages.failed(definition.name(), "Lock '" + definition.name() + "' is unavailable, so "
					+ definition.method() + " did not run (locking fails closed)", ex);
			throw new LockUnavailableException("Lock '" + definition.name() + "' is unavailable for "
					+ definition.method() + ": " + ex.getMessage(), ex);
		}
		catch (LockBusyException ex) {
			this.outages.answered();
			throw ex;
		}
		this.outages.answered();
		return handle;
	}

}
