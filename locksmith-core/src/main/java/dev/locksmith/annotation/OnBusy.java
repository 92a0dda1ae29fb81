package dev.locksmith.annotation;

/**
 * What an annotated method does when its lock stays busy for the whole wait.
 *
 * @since 0.1.0
 */
public enum OnBusy {

	/**
	 * Throw a {@code LockBusyException} (for async return types: complete with it), or call the
	 * {@code fallbackMethod} when one is declared.
	 */
	THROW,

	/**
	 * Do not run the method: return {@code null}, {@code Optional.empty()}, an empty {@code Mono} or
	 * {@code Flux}, or a completed future of {@code null}, as fits the return type.
	 */
	SKIP

}
