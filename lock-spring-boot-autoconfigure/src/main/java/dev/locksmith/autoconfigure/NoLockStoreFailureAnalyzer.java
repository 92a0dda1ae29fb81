package dev.locksmith.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Reports a {@link NoLockStoreException} as Spring Boot's "APPLICATION FAILED TO START" Description and Action. */
final class NoLockStoreFailureAnalyzer extends AbstractFailureAnalyzer<NoLockStoreException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, NoLockStoreException cause) {
		return new FailureAnalysis(cause.getMessage(), cause.action(), cause);
	}

}
