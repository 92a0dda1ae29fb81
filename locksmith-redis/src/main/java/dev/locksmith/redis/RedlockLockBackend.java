package dev.locksmith.redis;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.stream.IntStream;

import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.connection.RedisConnectionFactory;

import dev.locksmith.core.LockOwner;
import dev.locksmith.core.LockStore;
import dev.locksmith.core.ReleaseNotifications.Listener;
import dev.locksmith.core.StoreAdministration;
import dev.locksmith.core.KeyMasking;

/**
 * {@link LockStore} on several independent Redis servers (Redlock): a lock is held when a majority
 * of the servers granted it within its validity, {@code ttl - elapsed - drift}, and the engine counts
 * on no more than that. Every operation goes to all servers at once through Lettuce's asynchronous
 * API, each server bounded by a node timeout; a server that fails or stays silent counts as a no.
 * Release and renewal go to every server too, and a renewal holds only when a majority confirm it in
 * time. Fencing tokens stay strictly increasing while the servers that saw a token keep their data;
 * after a server restarts empty, only while the servers' clocks differ by less than the time between
 * two grants (see "Fencing tokens across servers" in docs/guide/redlock.md).
 * Waiters stand in no queue: a release freed on a quorum is announced, and a waiter tries again on
 * that notice or when the lease it was refused for ends, in no particular order. An attempt that won
 * some servers but no quorum tries once more after a short random pause, so that contenders who split
 * the vote do not wait for each other.
 */
final class RedlockLockBackend implements LockStore {

	/** Part of the ttl that bounds each server's answer, unless a fixed node timeout is set. */
	static final int NODE_TIMEOUT_PERCENT_OF_TTL = 5;

	/** Shortest node timeout derived from a ttl. */
	static final Duration MIN_NODE_TIMEOUT = Duration.ofMillis(20);

	private final List<RedlockNode> nodes;

	private final Quorum quorum;

	private final @Nullable Duration nodeTimeout;

	private final Duration maxNodeTimeout;

	private final LongSupplier nanoClock;

	private final QuorumRelease quorumRelease;

	private final List<? extends RedisConnectionFactory> servers;

	private final RedisLockKeys keys;

	private @Nullable RedlockLockAdministration administration;

	private RedlockLockBackend(Builder builder) {
		this.nodes = builder.servers.stream().map((server) -> new RedlockNode(server, builder.keys)).toList();
		this.quorum = new Quorum(this.nodes.size());
		this.nodeTimeout = builder.nodeTimeout;
		this.maxNodeTimeout = builder.maxNodeTimeout;
		this.nanoClock = builder.nanoClock;
		this.quorumRelease = new QuorumRelease(this.quorum);
		this.servers = builder.servers;
		this.keys = builder.keys;
	}

	/**
	 * Starts a builder for a backend on {@code servers}, three or five independent Redis servers (no
	 * replicas of one another), each with its own started connection factory.
	 */
	static Builder builder(List<? extends RedisConnectionFactory> servers, RedisLockKeys keys) {
		return new Builder(servers, keys);
	}

	/**
	 * Connects to every server and loads the scripts, in the background, so that the first lock call
	 * pays for neither within its short node timeout. Completes when every server is done or failed; a
	 * failure is only logged, and that server's first lock call connects instead.
	 */
	public CompletableFuture<Void> warmUp() {
		return CompletableFuture.allOf(this.nodes.stream()
			.map((node) -> node.locks().warmUp().handle((done, failure) -> null))
			.toArray(CompletableFuture[]::new));
	}

	@Override
	public CompletableFuture<AcquireResult> tryAcquire(AcquireRequest request) {
		QuorumAcquisition first = attempt(request);
		return first.run()
			.thenCompose((result) -> first.retryPause(request.queueFor())
				.map((pause) -> CompletableFuture
					.runAsync(() -> { }, CompletableFuture.delayedExecutor(pause.toNanos(), TimeUnit.NANOSECONDS))
					.thenCompose((paused) -> attempt(request).run()))
				.orElseGet(() -> CompletableFuture.completedFuture(result)));
	}

	private QuorumAcquisition attempt(AcquireRequest request) {
		return new QuorumAcquisition(this.nodes, request.keys(), request.owner(), request.ttl(),
				nodeTimeout(request.ttl()), this.nanoClock, this.quorumRelease);
	}

	/**
	 * Releases on every server, and announces it when a quorum released; fails when fewer than a quorum
	 * answered, as the locks may then stay held until their lease ends.
	 * @return the most locks released on any one server
	 */
	@Override
	public CompletableFuture<Integer> release(List<String> keys, LockOwner owner, Listener handOvers) {
		Duration timeout = untimedCallTimeout();
		return this.quorumRelease.release(this.nodes, keys, owner, timeout).thenApply((answers) -> {
			NodeAnswer.requireQuorum(answers, this.quorum, "release of " + KeyMasking.describe(keys), timeout);
			return answers.stream()
				.filter(NodeAnswer::answered)
				.mapToInt((answer) -> Objects.requireNonNull(answer.value()))
				.max()
				.orElse(0);
		});
	}

	/**
	 * Extends on every server. A lease counts as extended only when a quorum extended it and the answers
	 * came within its new validity; fewer answers than a quorum fail every lease's answer, so the engine
	 * retries while the leases last.
	 */
	@Override
	public List<CompletableFuture<Boolean>> extend(List<LeaseExtension> leases) {
		long startedAt = this.nanoClock.getAsLong();
		Duration timeout = nodeTimeout(leases.stream().map(LeaseExtension::ttl).min(Duration::compareTo)
			.orElse(this.maxNodeTimeout));
		CompletableFuture<List<Boolean>> extended = NodeAnswer
			.askAll(this.nodes, (node) -> allOf(node.locks().extend(leases)), timeout)
			.thenApply((answers) -> {
				NodeAnswer.requireQuorum(answers, this.quorum,
						"extend of " + KeyMasking.describe(leases.stream().map(LeaseExtension::key).toList()), timeout);
				long elapsed = this.nanoClock.getAsLong() - startedAt;
				return IntStream.range(0, leases.size())
					.mapToObj((i) -> LeaseValidity.isValid(leases.get(i).ttl(), elapsed)
							&& this.quorum.reachedBy(extendedCount(answers, i)))
					.toList();
			});
		return IntStream.range(0, leases.size()).mapToObj((i) -> extended.thenApply((all) -> all.get(i))).toList();
	}

	/**
	 * Asks every server; the key counts as locked when a quorum hold it, as a lock is held only where a
	 * majority granted it: a minority left by a refused or lapsed grant does not count. Fails when fewer
	 * than a quorum answered.
	 */
	@Override
	public CompletableFuture<Boolean> isLocked(String key) {
		Duration timeout = untimedCallTimeout();
		return NodeAnswer.askAll(this.nodes, (node) -> node.locks().isLocked(key), timeout).thenApply((answers) -> {
			NodeAnswer.requireQuorum(answers, this.quorum, "lookup of " + KeyMasking.describe(List.of(key)), timeout);
			return this.quorum.reachedBy((int) answers.stream()
				.filter((answer) -> answer.answered() && Boolean.TRUE.equals(answer.value()))
				.count());
		});
	}

	/** A lease is valid for its ttl less the servers' possible clock drift. */
	@Override
	public Duration validity(Duration ttl) {
		return LeaseValidity.fromRequest(ttl);
	}

	/** What operators see and do on these servers, made on first use, without the servers' clocks. */
	@Override
	public synchronized StoreAdministration administration() {
		if (this.administration == null) {
			this.administration = new RedlockLockAdministration(this.servers, this.keys, untimedCallTimeout(), Map::of);
		}
		return this.administration;
	}

	@Override
	public synchronized void close() {
		if (this.administration != null) {
			this.administration.close();
		}
		this.nodes.forEach(RedlockNode::close);
	}

	/** The fixed node timeout, or a few percent of the ttl within bounds. */
	Duration nodeTimeout(Duration ttl) {
		if (this.nodeTimeout != null) {
			return this.nodeTimeout;
		}
		Duration share = ttl.multipliedBy(NODE_TIMEOUT_PERCENT_OF_TTL).dividedBy(100);
		return (share.compareTo(MIN_NODE_TIMEOUT) < 0) ? MIN_NODE_TIMEOUT
				: (share.compareTo(this.maxNodeTimeout) > 0) ? this.maxNodeTimeout : share;
	}

	/** Bound on each server's answer to a call that carries no ttl: a release or a lookup. */
	private Duration untimedCallTimeout() {
		return (this.nodeTimeout != null) ? this.nodeTimeout : this.maxNodeTimeout;
	}

	/** One server's answers for every lease, once all came; one failed answer fails the server's. */
	private static CompletableFuture<List<Boolean>> allOf(List<CompletableFuture<Boolean>> answers) {
		return CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new))
			.thenApply((done) -> answers.stream().map(CompletableFuture::join).toList());
	}

	private static int extendedCount(List<NodeAnswer<List<Boolean>>> answers, int lease) {
		return (int) answers.stream()
			.filter((answer) -> answer.answered() && Objects.requireNonNull(answer.value()).get(lease))
			.count();
	}

	/** Configures a {@link RedlockLockBackend}. */
	static final class Builder {

		private final List<? extends RedisConnectionFactory> servers;

		private final RedisLockKeys keys;

		private @Nullable Duration nodeTimeout;

		private Duration maxNodeTimeout = Duration.ofMillis(500);

		private LongSupplier nanoClock = System::nanoTime;

		private Builder(List<? extends RedisConnectionFactory> servers, RedisLockKeys keys) {
			this.servers = List.copyOf(RedlockServers.requireRedlockCount(servers, "servers"));
			this.keys = Objects.requireNonNull(keys, "keys must not be null");
		}

		/** Bounds every server's answer by this fixed time, instead of 5% of each call's ttl. */
		public Builder nodeTimeout(Duration nodeTimeout) {
			this.nodeTimeout = requirePositive(nodeTimeout, "nodeTimeout");
			return this;
		}

		/**
		 * Longest a server's answer is awaited when the node timeout is derived from the ttl, and for
		 * releases; default 500ms. Keep it under a quarter of the engine's store timeout, which bounds a
		 * whole acquisition: grants, fencing write-back and, when refused, the release.
		 */
		public Builder maxNodeTimeout(Duration maxNodeTimeout) {
			this.maxNodeTimeout = requirePositive(maxNodeTimeout, "maxNodeTimeout");
			return this;
		}

		/** The monotonic clock that measures elapsed time, in nanoseconds; for tests. */
		Builder nanoClock(LongSupplier nanoClock) {
			this.nanoClock = nanoClock;
			return this;
		}

		public RedlockLockBackend build() {
			return new RedlockLockBackend(this);
		}

		static Duration requirePositive(Duration duration, String name) {
			if (duration == null || duration.toMillis() < 1) {
				throw new IllegalArgumentException(name + " must be at least 1ms, was " + duration);
			}
			return duration;
		}

	}

}
