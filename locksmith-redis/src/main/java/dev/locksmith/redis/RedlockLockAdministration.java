package dev.locksmith.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.connection.RedisConnectionFactory;

import dev.locksmith.core.KeyMasking;
import dev.locksmith.core.LockAdministration.StoredLock;
import dev.locksmith.core.LockUnavailableException;
import dev.locksmith.core.StoreAdministration;

/**
 * {@link StoreAdministration} over the Redlock servers: asks each of them at once, each answer bounded
 * by {@code timeout}. A lock is listed when a
 * quorum of servers hold it for the same instance; a forced release goes to every server.
 */
final class RedlockLockAdministration implements StoreAdministration, AutoCloseable {

	private final List<Server> servers;

	private final Quorum quorum;

	private final Duration timeout;

	private final Supplier<Map<String, Object>> clockDetails;

	RedlockLockAdministration(List<? extends RedisConnectionFactory> servers, RedisLockKeys keys,
			Duration timeout, Supplier<Map<String, Object>> clockDetails) {
		this.servers = RedlockServers.requireRedlockCount(servers, "servers")
			.stream()
			.map((server) -> new Server(RedlockNode.nameOf(server), new RedisLockAdministration(server, keys)))
			.toList();
		this.quorum = new Quorum(servers.size());
		this.timeout = timeout;
		this.clockDetails = clockDetails;
	}

	/** {@code redlock}, with how many servers must agree. */
	@Override
	public String storeDescription() {
		return "redlock (quorum " + this.quorum + ")";
	}

	/** The servers' clock offsets, and a warning when two of them drift apart too far for the leases taken. */
	@Override
	public Map<String, Object> storeDetails() {
		return this.clockDetails.get();
	}

	/** Completes when a quorum of servers answers; fails with {@link LockUnavailableException} naming those that do not. */
	@Override
	public CompletableFuture<Void> ping() {
		return askAll((server) -> server.administration().ping(), "ping").thenApply((answers) -> null);
	}

	/**
	 * {@code UP}, or {@code DOWN} with the reason in an operator's words ({@code DOWN (connection refused)},
	 * {@code DOWN (timed out after 2s)}), for each server by {@code host:port}.
	 */
	@Override
	public CompletableFuture<Map<String, String>> nodeStates() {
		return ask((server) -> server.administration().ping()).thenApply((answers) -> {
			Map<String, String> states = new LinkedHashMap<>();
			for (NodeAnswer<Void> answer : answers) {
				states.put(answer.node(), answer.answered() ? "UP" : "DOWN (" + answer.problem() + ")");
			}
			return states;
		});
	}

	/**
	 * The locks that a quorum of servers hold for the same instance, with the time until fewer than a
	 * quorum will: the quorum-th longest remaining lease.
	 */
	@Override
	public CompletableFuture<List<StoredLock>> storedLocks(int limit) {
		return askAll((server) -> server.administration().storedLocks(limit), "listing of the stored locks")
			.thenApply((answers) -> heldByQuorum(answers, limit));
	}

	private List<StoredLock> heldByQuorum(List<NodeAnswer<List<StoredLock>>> answers, int limit) {
		Map<Holding, List<Duration>> leases = new LinkedHashMap<>();
		for (NodeAnswer<List<StoredLock>> answer : answers) {
			if (answer.answered()) {
				for (StoredLock lock : Objects.requireNonNull(answer.value())) {
					leases.computeIfAbsent(new Holding(lock.name(), lock.key(), lock.holderInstance()),
							(k) -> new ArrayList<>())
						.add(lock.remainingTtl());
				}
			}
		}
		List<StoredLock> held = new ArrayList<>();
		leases.forEach((lock, remaining) -> {
			if (this.quorum.reachedBy(remaining.size()) && held.size() < limit) {
				remaining.sort(Comparator.reverseOrder());
				held.add(new StoredLock(lock.name(), lock.key(), remaining.get(this.quorum.size() - 1),
						lock.holderInstance()));
			}
		});
		return held;
	}

	/** Deletes the lock on every server whatever its owner; the fencing counters stay. */
	@Override
	public CompletableFuture<Boolean> forceRelease(String key) {
		return askAll((server) -> server.administration().forceRelease(key),
				"forced release of '" + KeyMasking.mask(key) + "'")
			.thenApply((answers) -> answers.stream().anyMatch((answer) -> Boolean.TRUE.equals(answer.value())));
	}

	/** Frees the threads of each server's administration. */
	@Override
	public void close() {
		this.servers.forEach((server) -> server.administration().close());
	}

	private <T> CompletableFuture<List<NodeAnswer<T>>> askAll(Function<Server, CompletableFuture<T>> call,
			String what) {
		return ask(call).thenApply((answers) -> {
			NodeAnswer.requireQuorum(answers, this.quorum, what, this.timeout);
			return answers;
		});
	}

	private <T> CompletableFuture<List<NodeAnswer<T>>> ask(Function<Server, CompletableFuture<T>> call) {
		return NodeAnswer.askAll(this.servers, call, this.timeout);
	}

	/** One lock of one holder, as the servers that hold it agree on it. */
	private record Holding(@Nullable String name, String key, String holderInstance) {
	}

	/** One server with its name. */
	private record Server(String name, RedisLockAdministration administration) {

		@Override
		public String toString() {
			return this.name;
		}

	}

}
