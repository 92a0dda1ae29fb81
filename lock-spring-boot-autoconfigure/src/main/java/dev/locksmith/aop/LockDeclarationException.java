package dev.locksmith.aop;

import org.jspecify.annotations.Nullable;

/**
 * A {@code @DistributedLock} that cannot be applied as written: thrown when its bean is created, so
 * the mistake stops the startup instead of the first call; {@link LockDeclarationFailureAnalyzer}
 * reports it.
 */
final class LockDeclarationException extends IllegalStateException {

	private final String declaration;

	/**
	 * @param declaration names the annotation and its method: {@code @DistributedLock on Orders.pay(String)}
	 * @param problem what is wrong with it
	 */
	LockDeclarationException(String declaration, String problem, @Nullable Throwable cause) {
		super(declaration + ": " + problem, cause);
		this.declaration = declaration;
	}

	/** The annotation and its method, as in the message. */
	String declaration() {
		return this.declaration;
	}

}
