package dev.locksmith.core;

import java.util.function.Consumer;

/**
 * SPI that tells this process when a lock is released anywhere, so waiters wake up instead of polling.
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface ReleaseNotifications {

	/** Calls {@code onReleased} with the key of every lock released from now on; delivery is best effort. */
	void subscribe(Consumer<String> onReleased);

}
