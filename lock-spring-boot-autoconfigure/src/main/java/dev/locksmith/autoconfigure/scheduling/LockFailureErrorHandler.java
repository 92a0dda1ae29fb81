package dev.locksmith.autoconfigure.scheduling;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.scheduling.support.TaskUtils;
import org.springframework.util.ErrorHandler;

import dev.locksmith.core.LockBusyException;
import dev.locksmith.core.LockUnavailableException;

/**
 * Error handler of the task scheduler: a task that could not take its lock is logged at DEBUG, because
 * Locksmith already logged the outage once (or the lock is busy by design); every other error goes to
 * Spring's handler for repeating tasks, which logs it at ERROR and keeps the task scheduled.
 */
final class LockFailureErrorHandler implements ErrorHandler {

	private static final Log logger = LogFactory.getLog(LockFailureErrorHandler.class);

	private final ErrorHandler others = TaskUtils.LOG_AND_SUPPRESS_ERROR_HANDLER;

	@Override
	public void handleError(Throwable error) {
		if (error instanceof LockUnavailableException || error instanceof LockBusyException) {
			if (logger.isDebugEnabled()) {
				logger.debug("Scheduled task did not run: " + error.getMessage());
			}
			return;
		}
		this.others.handleError(error);
	}

}
