package dev.locksmith.test;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

import org.assertj.core.api.AbstractAssert;

import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockInfo;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockService;

/**
 * AssertJ assertions on the locks of a {@link LockService}; failure messages name the key and who
 * holds it (thread, fencing token and annotated method).
 *
 * @since 0.1.0
 */
public class LockServiceAssert extends AbstractAssert<LockServiceAssert, LockService> {

	/** How {@link #isFree} takes the lock: at once, without renewal, for a lease it gives back at once. */
	private static final LockOptions PROBE = LockOptions.ofTtl(Duration.ofSeconds(5)).withRenew(false);

	LockServiceAssert(LockService actual) {
		super(actual, LockServiceAssert.class);
	}

	/** Verifies that this lock service holds the lock of {@code key} now. */
	public LockServiceAssert holds(String key) {
		isNotNull();
		if (heldLock(key).isEmpty()) {
			List<LockInfo> held = this.actual.heldLocks();
			failWithMessage("Expecting the lock service to hold lock '%s', but it holds %s", key,
					held.isEmpty() ? "no lock" : held.stream().map(LockServiceAssert::describe).collect(Collectors.joining(", ")));
		}
		return this;
	}

	/** Verifies that this lock service does not hold the lock of {@code key}; another owner may. */
	public LockServiceAssert doesNotHold(String key) {
		isNotNull();
		heldLock(key).ifPresent((held) -> failWithMessage(
				"Expecting the lock service not to hold lock '%s', but it holds %s", key, describe(held)));
		return this;
	}

	/**
	 * Verifies that nobody holds the lock of {@code key}, by taking it at once as a new owner would and
	 * giving it back: a lock with queued waiters is not free either.
	 */
	public LockServiceAssert isFree(String key) {
		isNotNull();
		doesNotHold(key);
		Optional<LockHandle> probe;
		try {
			probe = this.actual.tryAcquire(key, PROBE);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while checking that lock '" + key + "' is free", ex);
		}
		if (probe.isEmpty()) {
			failWithMessage("Expecting lock '%s' to be free, but another owner holds it (not this lock service)", key);
		}
		probe.get().close();
		return this;
	}

	private Optional<LockInfo> heldLock(String key) {
		return this.actual.heldLocks().stream().filter((lock) -> lock.key().equals(key)).findFirst();
	}

	private static String describe(LockInfo lock) {
		return "'" + lock.key() + "' (thread '" + lock.ownerThread() + "', fencing token " + lock.fencingToken()
				+ ((lock.holder() != null) ? ", held by " + lock.holder() : "") + ")";
	}

}
