package dev.locksmith.core;

import java.lang.System.Logger;
import java.lang.reflect.UndeclaredThrowableException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Callable;

import org.jspecify.annotations.Nullable;

import dev.locksmith.annotation.LockMode;

/**
 * Runs calls under their locks, for {@code LockService#callLocked} and the {@code @DistributedLock} aspect
 * alike: keys that the running calls of this thread already hold get one more hold, without a round trip;
 * the rest are acquired together, all or nothing. A synchronous call goes through {@link #call}; a call
 * whose work ends later (a {@code CompletionStage}, a subscription) takes the same steps one by one:
 * {@link #acquire}, {@link #enter} while its work is assembled, {@link #requireHeld} and closing the handle
 * when the work ends. For Locksmith's entry points, such as the aspect; applications call {@code LockService}.
 */
public final class LockedCalls {

	/** Programmatic calls leave a store outage to their caller: they log nothing. */
	private static final LockedCalls programmatic = new LockedCalls();

	private final @Nullable OutageLog outages;

	/** Locked calls that leave a store outage to their callers, as {@code LockService#callLocked} does. */
	public LockedCalls() {
		this.outages = null;
	}

	/**
	 * Locked calls that log an unavailable store on {@code logger}, once per lock name and outage (see
	 * {@link OutageLog}), and name the lock and its caller in the {@link LockUnavailableException}.
	 */
	public LockedCalls(Logger logger) {
		this.outages = new OutageLog(logger, "Locking is back");
	}

	/**
	 * {@link LockService#callLocked}: holds the lock of {@code key} from {@code locks}, runs {@code action}
	 * under it as this thread's {@link LockContext}, and releases it. A nested locked call through the same
	 * service, programmatic or annotated, holds the keys it shares with it again.
	 */
	static <T> T callLocked(LockService locks, String key, LockOptions options, Callable<T> action) {
		return programmatic.call(Call.programmatic(locks, key, options), action);
	}

	/** Every lock held by the running locked calls on this thread, outermost first. */
	public static List<HeldLock> held() {
		return LockFrames.held();
	}

	/**
	 * Runs {@code action} under the locks of {@code call}, entered as this thread's innermost lock, and
	 * releases them after. Checked exceptions of the action are rethrown wrapped in an
	 * {@link UndeclaredThrowableException}.
	 * @return the action's result, or {@code null} without running it when the locks stayed busy and the call
	 * skips then
	 * @throws LockLostException when the lease was lost while the action ran
	 */
	public <T> @Nullable T call(Call call, Callable<T> action) {
		LockHandle handle = acquire(call);
		if (handle == null) {
			return null;
		}
		try (handle; Scope scope = enter(call, handle)) {
			T result = action.call();
			requireHeld(call, handle);
			return result;
		}
		catch (RuntimeException | Error ex) {
			throw ex;
		}
		catch (Exception ex) {
			throw new UndeclaredThrowableException(ex);
		}
	}

	/**
	 * The handle for all keys of {@code call}, holding again what the running calls of this thread hold, or
	 * {@code null} when the missing ones stayed busy and the call skips then.
	 * @throws LockBusyException when the missing keys stayed busy and the call does not skip
	 * @throws IllegalStateException when a nested call asks for more than a held share
	 * @throws IllegalArgumentException when the lock service refuses a key
	 */
	public @Nullable LockHandle acquire(Call call) {
		return acquire(call, held());
	}

	/**
	 * The handle for all keys of {@code call}, or {@code null} when the missing ones stayed busy and the call
	 * skips then.
	 * @param held the locks of the running calls, outermost first, such as {@link #held()} and
	 * {@link ReactiveLockFrames#held}
	 * @throws LockBusyException when the missing keys stayed busy and the call does not skip
	 * @throws IllegalStateException when a nested call asks for more than a held share
	 * @throws IllegalArgumentException when the lock service refuses a key
	 */
	public @Nullable LockHandle acquire(Call call, List<HeldLock> held) {
		List<LockHandle> parts = holdAgain(call, held);
		try {
			List<String> missing = missing(call, held);
			if (!missing.isEmpty()) {
				LockHandle acquired = acquireMissing(call, missing);
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

	/** Whether acquiring the keys of {@code call} under the {@code held} locks asks the store: some key is not held yet. */
	public boolean needsRoundTrip(Call call, List<HeldLock> held) {
		return !missing(call, held).isEmpty();
	}

	/** The lock of {@code call} that {@code handle} holds, as the lock frames carry it. */
	public HeldLock heldLock(Call call, LockHandle handle) {
		return new HeldLock(call.locks(), handle, call.keys(), call.options().share());
	}

	/** Makes {@code handle} the innermost lock of this thread while the work of {@code call} runs here. */
	public Scope enter(Call call, LockHandle handle) {
		return LockFrames.enter(heldLock(call, handle), call.holder());
	}

	/** @throws LockLostException when {@code handle} was found lost while the work of {@code call} ran */
	public static void requireHeld(Call call, LockHandle handle) {
		if (!handle.isHeld()) {
			throw new LockLostException(call.options().name(), handle);
		}
	}

	/**
	 * One more hold of every held lock that the keys of {@code call} need. A write lock covers any nested
	 * call; a share covers only a nested call for the same share.
	 * @throws IllegalStateException when a nested call asks for more than a held share
	 */
	private static List<LockHandle> holdAgain(Call call, List<HeldLock> held) {
		Set<LockHandle> holding = Collections.newSetFromMap(new IdentityHashMap<>());
		LockShare share = call.options().share();
		for (String key : call.keys()) {
			HeldLock lock = find(call, key, held);
			if (lock != null && !lock.share().exclusive() && !lock.share().equals(share)) {
				throw new IllegalStateException(nestedShareMessage(call, key, lock.share(), share));
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

	private static String nestedShareMessage(Call call, String key, LockShare held, LockShare asked) {
		String message = call.caller() + " asks for lock '" + KeyMasking.mask(key) + "' as " + holder(asked)
				+ " while this thread holds it as " + holder(held);
		if (asked.exclusive()) {
			return message + ": a read lock cannot be upgraded, as two readers that both upgrade would each wait "
					+ "for the other forever; take the write lock from the start";
		}
		return message + "; a nested call may ask for the same share, or for less than a write lock holds";
	}

	/** Who holds {@code share}, for messages: "a writer", "a reader" or "one of 4 permit holders". */
	private static String holder(LockShare share) {
		if (share.mode() == LockMode.READ) {
			return "a reader";
		}
		return share.exclusive() ? "a writer" : "one of " + share.permits() + " permit holders";
	}

	private static List<String> missing(Call call, List<HeldLock> held) {
		return call.keys().stream().filter((key) -> find(call, key, held) == null).toList();
	}

	private static @Nullable HeldLock find(Call call, String key, List<HeldLock> held) {
		for (int i = held.size() - 1; i >= 0; i--) {
			if (held.get(i).holds(call.locks(), key)) {
				return held.get(i);
			}
		}
		return null;
	}

	private @Nullable LockHandle acquireMissing(Call call, List<String> keys) {
		try {
			return ask(call, keys);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new DistributedLockException("Interrupted while " + call.caller() + " waited for lock "
					+ KeyMasking.mask(call.options().name(), keys.get(0)), ex);
		}
	}

	/**
	 * Asks the store: a busy lock throws (with the store's retry hint) or gives {@code null}, as the call
	 * says. When the store is unavailable and outages are logged here, the exception names the lock and the
	 * caller, and that is logged once per lock name and outage.
	 */
	private @Nullable LockHandle ask(Call call, List<String> keys) throws InterruptedException {
		LockService locks = call.locks();
		LockHandle handle;
		try {
			handle = call.skipWhenBusy() ? locks.tryAcquireAll(keys, call.options()).orElse(null)
					: locks.acquireAll(keys, call.options());
		}
		catch (LockUnavailableException ex) {
			if (this.outages == null) {
				throw ex;
			}
			String name = call.name();
			this.outages.failed(name,
					"Lock '" + name + "' is unavailable, so " + call.caller() + " did not run (locking fails closed)", ex);
			throw new LockUnavailableException("Lock '" + name + "' is unavailable for " + call.caller() + ": "
					+ ex.getMessage(), ex);
		}
		catch (LockBusyException ex) {
			answered();
			throw ex;
		}
		answered();
		return handle;
	}

	private void answered() {
		if (this.outages != null) {
			this.outages.answered();
		}
	}

	/** Ends a lock's time as the innermost one of this thread. */
	@FunctionalInterface
	public interface Scope extends AutoCloseable {

		@Override
		void close();

	}

	/**
	 * One locked call.
	 *
	 * @param locks the lock service that grants its locks and owns the holds of its nested calls, compared by
	 * identity: a nested call through another service never holds them again
	 * @param keys the keys to lock, all or nothing
	 * @param options lease, wait, mode and the lock's name
	 * @param caller what asks, as messages name it: {@code OrderService.pay(String)}
	 * @param holder what holds the lock, shown to operators, or {@code null} to show nothing
	 * @param skipWhenBusy whether a lock that stays busy gives no handle rather than a {@link LockBusyException}
	 */
	public record Call(LockService locks, List<String> keys, LockOptions options, String caller,
			@Nullable String holder, boolean skipWhenBusy) {

		public Call {
			keys = List.copyOf(keys);
		}

		/** A call of {@code LockService#callLocked}: one key, waiting as its options say, throwing when busy. */
		static Call programmatic(LockService locks, String key, LockOptions options) {
			return new Call(locks, List.of(key), options, "LockService.callLocked", null, false);
		}

		/** The lock's name, or its first key masked when it has none. */
		String name() {
			return Objects.requireNonNullElseGet(this.options.name(), () -> KeyMasking.mask(this.keys.get(0)));
		}

	}

}
