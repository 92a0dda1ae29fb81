package dev.locksmith.aop;

import org.springframework.transaction.TransactionExecution;
import org.springframework.transaction.TransactionExecutionListener;

import dev.locksmith.core.HeldLock;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockLostException;
import dev.locksmith.core.LockedCalls;

/**
 * Refuses to commit a transaction that runs under a lock whose lease was lost: the check runs
 * before the commit, so the transaction rolls back and the call ends with {@link LockLostException}.
 * Spring Boot registers it with the auto-configured transaction managers.
 *
 * @since 0.1.0
 */
public final class LeaseCheckingTransactionListener implements TransactionExecutionListener {

	@Override
	public void beforeCommit(TransactionExecution transaction) {
		for (HeldLock lock : LockedCalls.held()) {
			LockHandle handle = lock.handle();
			if (!handle.isHeld()) {
				throw new LockLostException(handle);
			}
		}
	}

}
