package dev.locksmith.redis;

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.Predicate;

/**
 * Fairness of the wait queue, from the store's own queues: a waiter that stands first in a key's queue
 * (the first one not parked and not expired) waits only for the owners that held the key when it got
 * there and the parked waiters ahead of it. Nobody else takes the key past it (readers never barge past
 * a queued writer) but a waiter of the same process as one of those, at most the cohort bound of times
 * (the cohort hand-over, counted among the owners it waits for), and it is granted the key within a bound
 * once those have left. Waiters for several
 * keys, whose places are passed over while they are parked, are left to the liveness invariant: they are
 * told apart by their client, not by the queues they stand in, because on a cluster one that was refused
 * in one slot stands in that slot's queue only, and may be parked there for a moment between two
 * snapshots.
 */
final class QueueHeadCheck {

	private final long boundNanos;

	private final Predicate<String> waitsForSeveralKeys;

	private final int cohortPasses;

	private final Map<String, Head> heads = new HashMap<>();

	/** @param cohortPasses how many times in a row a release may pass a key to its own process past the head */
	QueueHeadCheck(Duration bound, Predicate<String> waitsForSeveralKeys, int cohortPasses) {
		this.boundNanos = bound.toNanos();
		this.waitsForSeveralKeys = waitsForSeveralKeys;
		this.cohortPasses = cohortPasses;
	}

	/** Checks the head of each of {@code keys} in {@code snapshot}, taken at {@code nowNanos}. */
	void check(ScenarioStore.State snapshot, List<String> keys, long nowNanos, BiConsumer<String, String> violation) {
		Map<String, Integer> queuesOf = new HashMap<>();
		keys.forEach((key) -> snapshot.queue(key).forEach((queued) -> queuesOf.merge(queued.ownerToken(), 1, Integer::sum)));
		for (String key : keys) {
			List<ScenarioStore.Queued> queue = snapshot.queue(key);
			int first = 0;
			while (first < queue.size() && !queue.get(first).liveAt(snapshot.clockMillis())) {
				first++;
			}
			List<String> holders = snapshot.holders(key);
			String waiter = (first < queue.size()) ? queue.get(first).ownerToken() : null;
			if (waiter == null || queuesOf.get(waiter) > 1 || this.waitsForSeveralKeys.test(waiter) || holders.contains(waiter)
					|| holders.contains(ScenarioStore.State.UNNAMED)) {
				this.heads.remove(key);
				continue;
			}
			Head head = this.heads.compute(key, (k, seen) -> (seen != null && seen.waiter.equals(waiter)) ? seen
					: new Head(waiter, nowNanos, holders));
			queue.subList(0, first).forEach((ahead) -> head.blockers.add(ahead.ownerToken()));
			List<String> past = holders.stream().filter((holder) -> !head.blockers.contains(holder)).toList();
			if (past.size() == 1 && isCohortPass(head, past.get(0))) {
				head.passes++;
				head.blockers.add(past.get(0));
				past = List.of();
			}
			if (!past.isEmpty() && !head.reported) {
				head.reported = true;
				violation.accept("fairness", past + " took '" + key + "' past " + waiter + ", which has stood first "
						+ "in its queue for " + TimeUnit.NANOSECONDS.toMillis(nowNanos - head.since) + "ms behind "
						+ head.blockers + "; the store: " + snapshot.describe(List.of(key)));
			}
			if (holders.stream().anyMatch(head.blockers::contains)) {
				head.freeSince = 0;
			}
			else if (head.freeSince == 0) {
				head.freeSince = nowNanos;
			}
			if (head.freeSince != 0 && nowNanos - head.freeSince > this.boundNanos && !head.reported) {
				head.reported = true;
				violation.accept("starvation", waiter + " has stood first in the queue of '" + key + "' for "
						+ TimeUnit.NANOSECONDS.toMillis(nowNanos - head.since) + "ms, and the owners ahead of it "
						+ head.blockers + " left it " + TimeUnit.NANOSECONDS.toMillis(nowNanos - head.freeSince)
						+ "ms ago (bound " + TimeUnit.NANOSECONDS.toMillis(this.boundNanos) + "ms), but it has not "
						+ "been granted; the store: " + snapshot.describe(List.of(key)));
			}
		}
	}

	/** Whether {@code taker} may have the key past the head: a pass within the bound to a blocker's process. */
	private boolean isCohortPass(Head head, String taker) {
		return head.passes < this.cohortPasses
				&& head.blockers.stream().anyMatch((blocker) -> instanceOf(blocker).equals(instanceOf(taker)));
	}

	/** The instance id an exclusive owner token starts with; a share's entry, which never matches one, whole. */
	private static String instanceOf(String ownerToken) {
		return ownerToken.startsWith("@") ? ownerToken : ownerToken.substring(0, Math.max(0, ownerToken.lastIndexOf(':')));
	}

	/** The waiter first in one key's queue, the owners it waits for, and the cohort passes made past it. */
	private static final class Head {

		final String waiter;

		final long since;

		final Set<String> blockers;

		long freeSince;

		int passes;

		boolean reported;

		Head(String waiter, long since, List<String> holders) {
			this.waiter = waiter;
			this.since = since;
			this.blockers = new HashSet<>(holders);
		}

	}

}
