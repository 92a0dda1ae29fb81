package dev.locksmith.annotation;

/**
 * Whether a lock is exclusive or shared with other readers of the same key.
 *
 * @since 0.1.0
 */
public enum LockMode {

	/** Shared: any number of readers hold the key together, and no writer holds it meanwhile. */
	READ,

	/** Exclusive: one holder at a time, or at most as many as the lock's permits. */
	WRITE

}
