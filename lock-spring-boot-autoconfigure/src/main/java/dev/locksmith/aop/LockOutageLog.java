package dev.locksmith.aop;

import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import dev.locksmith.core.LockUnavailableException;

/**
 * Keeps an outage of the lock store to a few log lines: one WARN per lock name when its locking first
 * fails, without the stack trace, and one INFO when the store answers again. Locking still fails closed:
 * the caller gets the exception every time.
 */
final class LockOutageLog {

	private static final Log logger = LogFactory.getLog(LockOutageLog.class);

	private final Set<String> failing = ConcurrentHashMap.newKeySet();

	/** The store failed the lock called {@code name} for {@code method}: WARN, once per name and outage. */
	void unavailable(String name, String method, LockUnavailableException ex) {
		if (this.failing.add(name)) {
			logger.warn("Lock '" + name + "' is unavailable, so " + method + " did not run: " + ex.getMessage()
					+ ". Locking fails closed; further failures of this lock are not logged until the lock store"
					+ " is back");
		}
	}

	/** The store answered: INFO once, naming the locks that failed, when it had been failing. */
	void available() {
		if (this.failing.isEmpty()) {
			return;
		}
		Set<String> recovered = new TreeSet<>();
		this.failing.removeIf(recovered::add);
		if (!recovered.isEmpty()) {
			logger.info("Locking is back: the lock store answers again (failed meanwhile: "
					+ String.join(", ", recovered) + ")");
		}
	}

}
