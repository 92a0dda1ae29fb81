package dev.locksmith.redis;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

import dev.locksmith.core.LockOwner;

/**
 * Releases locks on Redlock servers, and announces the release on the servers that released only when
 * they are a quorum: only then was a lock freed that a waiter could take. The give-back of a failed
 * attempt, a waiter that gives up, or the close of a lease that lapsed on a majority wakes nobody.
 */
final class QuorumRelease {

	private final Quorum quorum;

	QuorumRelease(Quorum quorum) {
		this.quorum = quorum;
	}

	/** Releases on each of {@code nodes}, each bounded by {@code timeout}; completes with their answers. */
	CompletableFuture<List<NodeAnswer<Integer>>> release(List<RedlockNode> nodes, List<String> keys,
			LockOwner owner, Duration timeout) {
		return NodeAnswer.askAll(nodes, (node) -> node.locks().release(keys, owner), timeout)
			.thenApply((answers) -> {
				List<RedlockNode> released = answers.stream()
					.filter((answer) -> answer.answered() && Objects.requireNonNull(answer.value()) > 0)
					.map((answer) -> nodes.get(answer.index()))
					.toList();
				if (this.quorum.reachedBy(released.size())) {
					released.forEach((node) -> node.announceRelease(keys, owner));
				}
				return answers;
			});
	}

}
