package dev.locksmith.actuate;

import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import dev.locksmith.actuate.WaitForGraph.Deadlock;
import dev.locksmith.core.LockAdministration;
import dev.locksmith.core.WaitQueue;
import dev.locksmith.core.WaitQueue.Waiter;

/**
 * The waits of the cluster view, looked up when it is asked for (health never asks): each lock's queue, the
 * waiters among the longest waits in the fleet, and the deadlocks of the wait-for graph, which
 * {@link DeadlockReports} reports once each.
 */
final class ClusterWaits {

	private final LockAdministration administration;

	private final DeadlockReports reports;

	ClusterWaits(LockAdministration administration, DeadlockReports reports) {
		this.administration = administration;
		this.reports = reports;
	}

	/** The waits now, showing the {@code shown} longest; none listed when the store cannot tell its queues. */
	Look look(int shown) {
		List<WaitQueue> queues;
		try {
			queues = this.administration.waitQueues(LocksEndpoint.CLUSTER_LIMIT);
		}
		catch (UnsupportedOperationException ex) {
			return new Look(false, Map.of(), Set.of(), 0, List.of(), Instant.now());
		}
		List<Deadlock> deadlocks = WaitForGraph.of(queues).deadlocks();
		this.reports.found(deadlocks);
		Instant now = Instant.now();
		List<Waiter> waiters = queues.stream().flatMap((queue) -> queue.waiters().stream()).toList();
		Set<Waiter> longest = Collections.newSetFromMap(new IdentityHashMap<>());
		waiters.stream()
			.sorted(Comparator.comparing((Waiter waiter) -> waitingFor(waiter, now),
					Comparator.nullsLast(Comparator.reverseOrder())))
			.limit(shown)
			.forEach(longest::add);
		return new Look(true, queues.stream().collect(Collectors.toMap(WaitQueue::key, Function.identity())), longest,
				waiters.size(), deadlocks, now);
	}

	/** How long {@code waiter} has waited, by its instance's clock and this one's, or {@code null} when not known. */
	static @Nullable Duration waitingFor(Waiter waiter, Instant now) {
		Instant askedAt = waiter.owner().askedAt();
		if (askedAt == null) {
			return null;
		}
		Duration waited = Duration.between(askedAt, now);
		return waited.isNegative() ? Duration.ZERO : waited;
	}

	/**
	 * The waits found by one look.
	 *
	 * @param listed whether the store told its queues
	 * @param queues each lock's queue, by key
	 * @param shown the waiters among the longest waits
	 * @param waiting how many waiters there are in all
	 * @param deadlocks the cycles of the wait-for graph
	 * @param now when the look was taken
	 */
	record Look(boolean listed, Map<String, WaitQueue> queues, Set<Waiter> shown, int waiting,
			List<Deadlock> deadlocks, Instant now) {

		/** The queue of {@code key}, or {@code null} when it has none listed. */
		@Nullable WaitQueue queue(String key) {
			return this.queues.get(key);
		}

		/** The waiters of {@code key} that are shown, in queue order. */
		List<Waiter> shownWaiters(String key) {
			WaitQueue queue = this.queues.get(key);
			return (queue != null) ? queue.waiters().stream().filter(this.shown::contains).toList() : List.of();
		}

	}

}
