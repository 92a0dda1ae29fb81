package dev.locksmith.actuate;

import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import dev.locksmith.actuate.WaitForGraph.Deadlock;
import dev.locksmith.core.KeyMasking;

/**
 * Reports each deadlock once: a WARN naming its threads and locks, and a {@link LockDeadlockEvent}, when
 * a look finds it that the look before did not. A deadlock that lasts is not reported again; one that
 * ends and comes back is.
 */
final class DeadlockReports {

	private static final Log logger = LogFactory.getLog(DeadlockReports.class);

	private final Consumer<LockDeadlockEvent> events;

	private final ReentrantLock guard = new ReentrantLock();

	private Set<LockDeadlockEvent> lastFound = Set.of();

	DeadlockReports(Consumer<LockDeadlockEvent> events) {
		this.events = events;
	}

	/** Reports those of {@code deadlocks} that the last look did not find, and remembers them all. */
	void found(List<Deadlock> deadlocks) {
		Set<LockDeadlockEvent> found = new HashSet<>();
		deadlocks.forEach((deadlock) -> found.add(signature(deadlock)));
		this.guard.lock();
		try {
			for (LockDeadlockEvent deadlock : found) {
				if (!this.lastFound.contains(deadlock)) {
					report(deadlock);
				}
			}
			this.lastFound = found;
		}
		finally {
			this.guard.unlock();
		}
	}

	private void report(LockDeadlockEvent deadlock) {
		logger.warn("Deadlock: threads " + String.join(", ", deadlock.threads())
				+ " wait for one another's locks " + String.join(", ", deadlock.locks())
				+ "; each waits until its wait time ends. Break it with shorter wait times, by taking locks in one "
				+ "order everywhere, or by locking the keys together in one multi-key lock");
		this.events.accept(new LockDeadlockEvent(deadlock.threads(), deadlock.locks(), Instant.now()));
	}

	/** The deadlock as its report names it, without a time, so that the same cycle compares equal. */
	private static LockDeadlockEvent signature(Deadlock deadlock) {
		return new LockDeadlockEvent(deadlock.threads(),
				deadlock.locks().stream().map((lock) -> KeyMasking.mask(lock.name(), lock.key())).toList(), Instant.EPOCH);
	}


}
