package dev.locksmith.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

import dev.locksmith.aop.LockDeclarationException;

/** Reports a wrong {@code @DistributedLock} as Spring Boot's "APPLICATION FAILED TO START" Description and Action. */
final class LockDeclarationFailureAnalyzer extends AbstractFailureAnalyzer<LockDeclarationException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, LockDeclarationException cause) {
		String action = (cause.action() != null) ? cause.action() : "Correct the " + cause.declaration() + ".";
		return new FailureAnalysis(cause.getMessage(), action + " Every @DistributedLock is checked when its bean "
				+ "is created, so that no call finds its lock unusable.", cause);
	}

}
