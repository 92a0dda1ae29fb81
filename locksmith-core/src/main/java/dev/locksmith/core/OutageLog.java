package dev.locksmith.core;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Keeps a lock store outage to one WARN per lock name, DEBUG after it, and one INFO at its end, for one component.
 * Not API: its wording may change.
 */
public final class OutageLog {

	private final Logger logger;

	private final String recovery;

	private final Set<String> failing = ConcurrentHashMap.newKeySet();

	/** A log on {@code logger} that says {@code recovery}, such as {@code Locking is back}, once the store answers again. */
	public OutageLog(Logger logger, String recovery) {
		this.logger = logger;
		this.recovery = recovery;
	}

	/**
	 * A call for the lock called {@code name} failed with {@code failure}, and {@code what} says what that
	 * cost: WARN with the failure's reason, once per name and outage; DEBUG with the stack trace after that.
	 */
	public void failed(String name, String what, Throwable failure) {
		if (this.failing.add(name)) {
			this.logger.log(Level.WARNING, what + ": " + StoreFailures.reason(failure)
					+ ". Until the lock store answers again, further failures of this lock are logged at DEBUG");
		}
		else {
			this.logger.log(Level.DEBUG, what, failure);
		}
	}

	/** The store answered: INFO once, naming the locks that failed, when it had been failing. */
	public void answered() {
		if (this.failing.isEmpty()) {
			return;
		}
		Set<String> recovered = new TreeSet<>();
		this.failing.removeIf(recovered::add);
		if (!recovered.isEmpty()) {
			this.logger.log(Level.INFO, this.recovery + ": the lock store answers again (failed meanwhile: "
					+ String.join(", ", recovered) + ")");
		}
	}

}
