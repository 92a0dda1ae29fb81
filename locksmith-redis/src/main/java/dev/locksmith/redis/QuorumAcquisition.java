package dev.locksmith.redis;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import dev.locksmith.core.KeyMasking;
import dev.locksmith.core.LockOwner;
import dev.locksmith.core.LockStore.AcquireRequest;
import dev.locksmith.core.LockStore.AcquireResult;

/**
 * One Redlock acquisition attempt. Every server is asked at once to set the locks (all or nothing on
 * each server) and issue their fencing tokens. When a quorum granted them, the highest token of each
 * key is written back to every granting server whose own token was lower, so that a quorum of
 * servers remembers it: any later quorum shares a server with this one and issues a higher token.
 * The locks are held when a quorum confirmed and the validity {@code ttl - elapsed - drift} is still
 * positive; otherwise they are released on the servers that granted them or did not answer.
 */
final class QuorumAcquisition {

	private final List<RedlockNode> nodes;

	private final Quorum quorum;

	private final List<String> keys;

	private final LockOwner owner;

	private final Duration ttl;

	private final Duration nodeTimeout;

	private final LongSupplier nanoClock;

	private final long startedAt;

	private final QuorumRelease release;

	private volatile boolean lostSplitVote;

	QuorumAcquisition(List<RedlockNode> nodes, List<String> keys, LockOwner owner, Duration ttl,
			Duration nodeTimeout, LongSupplier nanoClock, QuorumRelease release) {
		this.nodes = nodes;
		this.quorum = new Quorum(nodes.size());
		this.keys = keys;
		this.owner = owner;
		this.ttl = ttl;
		this.nodeTimeout = nodeTimeout;
		this.nanoClock = nanoClock;
		this.startedAt = nanoClock.getAsLong();
		this.release = release;
	}

	CompletableFuture<AcquireResult> run() {
		return NodeAnswer
			.askAll(this.nodes, (node) -> node.locks().tryAcquire(new AcquireRequest(this.keys, this.owner, this.ttl, Duration.ZERO)),
					this.nodeTimeout)
			.thenCompose(this::afterGrants);
	}

	private CompletableFuture<AcquireResult> afterGrants(List<NodeAnswer<AcquireResult>> answers) {
		List<NodeAnswer<AcquireResult>> grants = answers.stream()
			.filter((answer) -> answer.answered() && Objects.requireNonNull(answer.value()).acquired())
			.toList();
		if (!this.quorum.reachedBy(grants.size())) {
			this.lostSplitVote = !grants.isEmpty();
			return giveUp(answers, () -> refusal(answers));
		}
		Map<String, Long> highest = highestTokens(grants);
		return NodeAnswer.askAll(grants, (grant) -> writeBack(grant, highest), this.nodeTimeout)
			.thenCompose((confirmations) -> {
				int confirmed = (int) confirmations.stream()
					.filter((answer) -> answer.answered() && Boolean.TRUE.equals(answer.value()))
					.count();
				long elapsed = this.nanoClock.getAsLong() - this.startedAt;
				if (this.quorum.reachedBy(confirmed) && LeaseValidity.isValid(this.ttl, elapsed)) {
					return CompletableFuture.completedFuture(AcquireResult.granted(highest));
				}
				return giveUp(answers, () -> AcquireResult.busy(this.keys.get(0), randomDelay(Duration.ZERO)));
			});
	}

	/** Raises the granting server's counters to the highest tokens, unless they are there already. */
	private CompletableFuture<Boolean> writeBack(NodeAnswer<AcquireResult> grant, Map<String, Long> highest) {
		return Objects.requireNonNull(grant.value()).fencingTokens().equals(highest)
				? CompletableFuture.completedFuture(true)
				: this.nodes.get(grant.index()).locks().raiseFencingTokens(this.keys, this.owner, highest);
	}

	/**
	 * Too few grants: busy when a quorum answered (someone else holds the locks on enough servers, or
	 * contenders split the vote), unavailable when too few servers answered to tell.
	 */
	private AcquireResult refusal(List<NodeAnswer<AcquireResult>> answers) {
		NodeAnswer.requireQuorum(answers, this.quorum, "acquire of " + KeyMasking.describe(this.keys), this.nodeTimeout);
		List<AcquireResult> refusals = answers.stream()
			.filter(NodeAnswer::answered)
			.map(NodeAnswer::value)
			.map(Objects::requireNonNull)
			.filter((result) -> !result.acquired())
			.toList();
		Duration soonestFree = refusals.stream().map(AcquireResult::retryAfter).min(Duration::compareTo)
			.orElse(Duration.ZERO);
		String busyKey = refusals.stream().map(AcquireResult::busyKey).filter(Objects::nonNull).findFirst()
			.orElse(this.keys.get(0));
		return AcquireResult.busy(busyKey, randomDelay(soonestFree));
	}

	/**
	 * A random pause before one more attempt, after this one lost a split vote: it won some servers but
	 * no quorum, so other contenders may have split the servers between them. The pause desynchronises
	 * them, and with what this attempt took so far stays within a node timeout and {@code queueFor}.
	 * Empty after a grant, a plain refusal, or when no time is left.
	 */
	Optional<Duration> retryPause(Duration queueFor) {
		long elapsed = this.nanoClock.getAsLong() - this.startedAt;
		long window = Math.min(Math.min(this.nodeTimeout.toNanos(), queueFor.toNanos()) - elapsed,
				Math.max(TimeUnit.MILLISECONDS.toNanos(1), 4 * elapsed));
		return (this.lostSplitVote && window > 0)
				? Optional.of(Duration.ofNanos(ThreadLocalRandom.current().nextLong(window) + 1)) : Optional.empty();
	}

	/**
	 * Releases on the servers that granted or did not answer, then reports {@code outcome}: nothing is left
	 * behind by a failed attempt, and a server that refused is not asked.
	 */
	private CompletableFuture<AcquireResult> giveUp(List<NodeAnswer<AcquireResult>> answers,
			Supplier<AcquireResult> outcome) {
		List<RedlockNode> taken = answers.stream()
			.filter((answer) -> !answer.answered() || Objects.requireNonNull(answer.value()).acquired())
			.map((answer) -> this.nodes.get(answer.index()))
			.toList();
		return this.release.release(taken, this.keys, this.owner, this.nodeTimeout)
			.handle((released, failure) -> null)
			.thenApply((ignored) -> outcome.get());
	}

	/**
	 * When to try again: once the soonest busy lease ends, plus a random delay of up to a node timeout,
	 * so that contenders who split the vote do not all come back at the same moment.
	 */
	private Duration randomDelay(Duration soonestFree) {
		long jitterMillis = ThreadLocalRandom.current().nextLong(1, Math.max(2, this.nodeTimeout.toMillis() + 1));
		return soonestFree.plusMillis(jitterMillis);
	}

	private Map<String, Long> highestTokens(List<NodeAnswer<AcquireResult>> grants) {
		Map<String, Long> highest = new LinkedHashMap<>();
		for (String key : this.keys) {
			highest.put(key, grants.stream()
				.mapToLong((grant) -> Objects.requireNonNull(grant.value()).fencingTokens().get(key))
				.max()
				.orElseThrow());
		}
		return highest;
	}

}
