package dev.locksmith.aop;

import org.jspecify.annotations.Nullable;

/**
 * A {@code @DistributedLock} that cannot be applied as written: thrown when its bean is created, so
 * the mistake stops the startup instead of the first call; Locksmith's auto-configuration reports it as
 * a startup failure analysis.
 */
public final class LockDeclarationException extends IllegalStateException {

	private final String declaration;

	private final @Nullable String action;

	/**
	 * @param declaration names the annotation and its method: {@code @DistributedLock on Orders.pay(String)}
	 * @param problem what is wrong with it
	 */
	LockDeclarationException(String declaration, String problem, @Nullable Throwable cause) {
		this(declaration, problem, null, cause);
	}

	/**
	 * @param declaration names the annotation and its method: {@code @DistributedLock on Orders.pay(String)}
	 * @param problem what is wrong with it
	 * @param action what the user can do about it, when more than correcting the declaration
	 */
	LockDeclarationException(String declaration, String problem, @Nullable String action,
			@Nullable Throwable cause) {
		super(declaration + ": " + problem, cause);
		this.declaration = declaration;
		this.action = action;
	}

	/** The annotation and its method, as in the message. */
	public String declaration() {
		return this.declaration;
	}

	/** What the user can do, when more than correcting the declaration; {@code null} otherwise. */
	public @Nullable String action() {
		return this.action;
	}

}
