package dev.locksmith.actuate;

import java.time.Instant;
import java.util.List;

/**
 * Published, as an application event, when the {@code locks} endpoint's cluster view finds threads that wait
 * for one another's locks in a cycle: once when the cycle is first found, not again while it lasts.
 *
 * @param threads the threads of the cycle, as {@code <instance id>#<thread id>}
 * @param locks the locks they wait for one another on, keys masked as in log lines ({@code <name>:******})
 * @param detectedAt when the cycle was found
 * @since 0.1.0
 */
public record LockDeadlockEvent(List<String> threads, List<String> locks, Instant detectedAt) {

	public LockDeadlockEvent {
		threads = List.copyOf(threads);
		locks = List.copyOf(locks);
	}

}
