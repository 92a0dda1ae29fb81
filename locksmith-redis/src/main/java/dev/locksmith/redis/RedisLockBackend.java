package dev.locksmith.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadFactory;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.util.ClassUtils;

import dev.locksmith.core.LockOwner;
import dev.locksmith.core.LockStore;
import dev.locksmith.core.OwnerEntries;
import dev.locksmith.core.ReleaseNotifications.Listener;
import dev.locksmith.core.StoreAdministration;
/**
 * {@link LockStore} on one Redis deployment (standalone, Sentinel or Cluster) through Spring Data
 * Redis. Each operation is one Lua script, sent through Lettuce's asynchronous API (or, for clients
 * without one, a bounded pool). Waiters stand in a queue per key in Redis, and a release hands the
 * lock to the first of them under a short claim lease. On a cluster, an operation on keys of several
 * hash slots runs one script per slot; several locks spanning slots are taken slot by slot and given
 * back when a later slot is busy or fails, so the grant stays all or nothing. An owner asking for a share
 * (a reader's or a permit holder's, one key each) takes, renews and releases its own share.
 */
final class RedisLockBackend implements LockStore {

	/** How long a waiter handed a lock has to take it, unless configured otherwise. */
	static final Duration DEFAULT_CLAIM_LEASE = Duration.ofSeconds(2);

	/**
	 * How many times in a row a release hands a lock to a waiter of its own process ahead of the first
	 * waiter of another, unless configured otherwise.
	 */
	static final int DEFAULT_COHORT_PASSES = 2;

	/** For a release whose caller has no waiters to tell of the hand-overs it makes. */
	private static final Listener NO_LISTENER = (key, ownerToken, claimLease, fencingToken) -> {
	};

	private static final Log logger = LogFactory.getLog(RedisLockBackend.class);

	private static final ThreadFactory WARM_UP_THREADS = DaemonThreads.named("locksmith-warm-up");

	static final boolean LETTUCE_PRESENT = ClassUtils.isPresent("io.lettuce.core.RedisClient", null);

	private final ScriptRunner runner;

	private final ScriptCalls scripts;

	private final ScriptArguments arguments;

	private final HashSlotPartitioner slots;

	private final EvictionPolicyCheck evictionPolicy;

	private final TopologyRefreshCheck topologyRefresh;

	private final RedisShares shares;

	private final RedisLockKeys keys;

	private final Duration claimLease;

	private final RedisConnectionFactory connectionFactory;

	private final boolean shardedPubSubAsked;

	private final int cohortPasses;

	private @Nullable RedisLockAdministration administration;

	RedisLockBackend(RedisConnectionFactory connectionFactory, RedisLockKeys keys) {
		this(connectionFactory, keys, DEFAULT_CLAIM_LEASE);
	}

	/**
	 * A backend whose releases give each waiter handed a lock {@code claimLease} to take it: a waiter
	 * that died meanwhile holds up the next one for at most that long.
	 */
	RedisLockBackend(RedisConnectionFactory connectionFactory, RedisLockKeys keys, Duration claimLease) {
		this(connectionFactory, keys, claimLease, false);
	}

	/** A backend whose hand-overs are published on shard channels when {@code shardedPubSub} can apply. */
	RedisLockBackend(RedisConnectionFactory connectionFactory, RedisLockKeys keys, Duration claimLease,
			boolean shardedPubSub) {
		this(connectionFactory, keys, claimLease, shardedPubSub, DEFAULT_COHORT_PASSES);
	}

	/**
	 * A backend whose releases hand a lock up to {@code cohortPasses} times in a row to a waiter of the
	 * releasing process ahead of the first waiter of another (0: always to the first waiter).
	 */
	RedisLockBackend(RedisConnectionFactory connectionFactory, RedisLockKeys keys, Duration claimLease,
			boolean shardedPubSub, int cohortPasses) {
		this.runner = runnerFor(connectionFactory);
		this.scripts = new ScriptCalls(this.runner, keys);
		this.arguments = new ScriptArguments(keys, claimLease, shardedPubSub(connectionFactory, shardedPubSub));
		this.slots = new HashSlotPartitioner(this.runner::isCluster, keys::lockKey);
		this.evictionPolicy = new EvictionPolicyCheck(connectionFactory);
		this.topologyRefresh = new TopologyRefreshCheck(connectionFactory);
		this.shares = new RedisShares(this.arguments, this.scripts);
		this.keys = keys;
		this.claimLease = claimLease;
		this.connectionFactory = connectionFactory;
		this.shardedPubSubAsked = shardedPubSub;
		this.cohortPasses = cohortPasses;
	}

	/**
	 * Connects and loads the scripts on a short-lived background thread, so that the first lock call
	 * pays for neither, then checks that Redis does not evict lock keys: a WARN when its
	 * {@code maxmemory-policy} is not {@code noeviction}, and one when a cluster connection never
	 * refreshes its topology. A failure is only logged: the first call
	 * connects and loads the scripts itself.
	 */
	public CompletableFuture<Void> warmUp() {
		return CompletableFuture.runAsync(() -> {
			try {
				this.runner.warmUp(LockScripts.HOT_PATH).join();
			}
			catch (RuntimeException ex) {
				warmUpFailed(ex);
			}
			this.evictionPolicy.check();
			this.topologyRefresh.check();
		}, (task) -> WARM_UP_THREADS.newThread(task).start());
	}

	/** An INFO, as the first lock call tries again; a WARN when Redis refused a permission, as it will again. */
	private void warmUpFailed(RuntimeException ex) {
		String reason = RedisAcl.explain(String.valueOf(ex), this.keys);
		if (RedisAcl.isRefusal(reason)) {
			logger.warn("Redis refused the lock connection a permission: every lock call will fail until the ACL "
					+ "of its user grants it: " + reason);
		}
		else {
			logger.info("Could not warm up the Redis lock connection; the first lock call will: " + reason);
		}
	}

	@Override
	public CompletableFuture<AcquireResult> tryAcquire(AcquireRequest request) {
		List<String> keys = request.keys();
		if (!request.owner().share().exclusive()) {
			return this.shares.acquire(keys.get(0), request.owner(), request.ttl(), request.queueFor());
		}
		String owner = OwnerEntries.of(request.owner());
		List<List<Integer>> slotGroups = (keys.size() == 1) ? List.of(List.of(0)) : this.slots.partition(keys);
		if (slotGroups.size() == 1) {
			return acquireInOneSlot(keys, owner, request.ttl(), request.queueFor());
		}
		return acquireSlotBySlot(keys, slotGroups, 0, new HashMap<>(), owner, request.ttl(), request.queueFor());
	}

	/** Releases, telling no listener of the hand-overs: for a store that announces them otherwise (Redlock). */
	CompletableFuture<Integer> release(List<String> keys, LockOwner owner) {
		return release(keys, owner, NO_LISTENER);
	}

	@Override
	public CompletableFuture<Integer> release(List<String> keys, LockOwner owner, Listener handOvers) {
		if (!owner.share().exclusive()) {
			return this.shares.release(keys.get(0), owner);
		}
		return release(keys, OwnerEntries.of(owner), handOvers);
	}

	private CompletableFuture<Integer> release(List<String> keys, String owner, Listener handOvers) {
		return inEachSlot(keys, (group) -> this.scripts.call("release", group, LockScripts.RELEASE,
				this.arguments.release(group, owner, this.cohortPasses), (answer) -> ScriptAnswers.released(answer, this.keys, handOvers)));
	}

	/** Gives back the locks of {@code keys} and parks the waiter in their queues for {@code queueFor}. */
	private CompletableFuture<Integer> stepAside(List<String> keys, String ownerToken, Duration queueFor) {
		return inEachSlot(keys, (group) -> this.scripts.call("step aside", group, LockScripts.STEP_ASIDE,
				this.arguments.giveBack(group, ownerToken, Long.toString(queueFor.toMillis())), Long::intValue));
	}

	private CompletableFuture<Integer> inEachSlot(List<String> keys,
			Function<List<String>, CompletableFuture<Integer>> operation) {
		CompletableFuture<Integer> total = CompletableFuture.completedFuture(0);
		for (List<String> group : this.slots.groups(keys)) {
			total = total.thenCombine(operation.apply(group), Integer::sum);
		}
		return total;
	}

	/**
	 * Sends one script per hash slot, all at once, and one more for the slot's shares where it has any;
	 * each lease's answer comes from its own slot's script.
	 */
	@Override
	public List<CompletableFuture<Boolean>> extend(List<LeaseExtension> leases) {
		List<CompletableFuture<Boolean>> extended = new ArrayList<>(Collections.nCopies(leases.size(), null));
		for (List<Integer> group : this.slots.partition(leases.stream().map(LeaseExtension::key).toList())) {
			Map<Boolean, List<Integer>> byKind = group.stream()
				.collect(Collectors.partitioningBy((i) -> !leases.get(i).owner().share().exclusive()));
			byKind.forEach((shared, part) -> {
				if (part.isEmpty()) {
					return;
				}
				List<LeaseExtension> partLeases = part.stream().map(leases::get).toList();
				CompletableFuture<List<Boolean>> call = shared ? this.shares.extend(partLeases)
						: extendInOneSlot(partLeases);
				for (int i = 0; i < part.size(); i++) {
					int inPart = i;
					extended.set(part.get(i), call.thenApply((results) -> results.get(inPart)));
				}
			});
		}
		return extended;
	}

	/**
	 * Raises the fencing counter of each key to at least its floor, where {@code owner} still holds
	 * every lock of {@code keys}: how a quorum of independent servers (Redlock) makes the nodes that
	 * granted a lock remember the highest token any of them issued for it.
	 * @param floors the lowest counter of each key
	 * @return whether the owner still held every lock; when not, no counter of its slot was changed
	 */
	CompletableFuture<Boolean> raiseFencingTokens(List<String> keys, LockOwner owner, Map<String, Long> floors) {
		CompletableFuture<Boolean> raised = CompletableFuture.completedFuture(true);
		for (List<Integer> group : this.slots.partition(keys)) {
			List<String> groupKeys = group.stream().map(keys::get).toList();
			List<Long> groupFloors = groupKeys.stream().map(floors::get).toList();
			raised = raised.thenCombine(this.scripts.call("fencing write-back", groupKeys, LockScripts.RAISE_FENCES,
					this.arguments.raiseFences(groupKeys, OwnerEntries.of(owner), groupFloors), (held) -> held == 1L),
					Boolean::logicalAnd);
		}
		return raised;
	}

	/**
	 * Tells the waiters of {@code keys} that {@code owner} freed them, as a release notification
	 * that hands the locks to nobody (a zero claim lease): for a store whose waiters stand in no queue
	 * (Redlock).
	 */
	CompletableFuture<Void> announceRelease(List<String> keys, LockOwner owner) {
		return this.scripts.call("release notice", keys, LockScripts.ANNOUNCE_RELEASE,
				this.arguments.announceRelease(keys, OwnerEntries.of(owner)), (published) -> null);
	}

	@Override
	public Duration claimLease() {
		return this.claimLease;
	}

	@Override
	public boolean grantsShares() {
		return true;
	}

	@Override
	public CompletableFuture<Boolean> isLocked(String key) {
		return this.scripts.call("lookup", List.of(key), LockScripts.IS_LOCKED, this.arguments.isLocked(key),
				(exists) -> exists == 1L);
	}

	/** What operators see and do in this store, made on first use. */
	@Override
	public synchronized StoreAdministration administration() {
		if (this.administration == null) {
			this.administration = new RedisLockAdministration(this.connectionFactory, this.keys, this.claimLease,
					this.shardedPubSubAsked);
		}
		return this.administration;
	}

	@Override
	public synchronized void close() {
		this.runner.close();
		if (this.administration != null) {
			this.administration.close();
		}
	}

	/**
	 * Takes the slots one after the other. When one refuses a waiter, it steps aside in every other slot
	 * before the outcome is reported: the locks it took or was handed there are given back, and it stays
	 * parked in their queues, keeping its place while it waits for the slot that refused it. When one
	 * fails, or the caller does not wait, every other slot is released, queue places included. Each
	 * slot's fencing tokens are kept by key, and the grant lists them in the order of {@code keys}, whatever the order
	 * of the slots.
	 * @param slotGroups the positions in {@code keys} of each slot's keys
	 * @param fencingTokens the token of each key granted so far
	 */
	private CompletableFuture<AcquireResult> acquireSlotBySlot(List<String> keys, List<List<Integer>> slotGroups,
			int next, Map<String, Long> fencingTokens, String ownerToken, Duration ttl, Duration queueFor) {
		if (next == slotGroups.size()) {
			Map<String, Long> inKeyOrder = new LinkedHashMap<>();
			keys.forEach((key) -> inKeyOrder.put(key, fencingTokens.get(key)));
			return CompletableFuture.completedFuture(AcquireResult.granted(inKeyOrder));
		}
		List<Integer> slot = slotGroups.get(next);
		List<String> otherSlots = IntStream.range(0, keys.size())
			.filter((position) -> !slot.contains(position))
			.mapToObj(keys::get)
			.toList();
		return acquireInOneSlot(slot.stream().map(keys::get).toList(), ownerToken, ttl, queueFor)
			.handle((result, failure) -> {
				if (failure == null && result.acquired()) {
					fencingTokens.putAll(result.fencingTokens());
					return acquireSlotBySlot(keys, slotGroups, next + 1, fencingTokens, ownerToken, ttl, queueFor);
				}
				CompletableFuture<AcquireResult> outcome = (failure != null) ? CompletableFuture.failedFuture(failure)
						: CompletableFuture.completedFuture(result);
				CompletableFuture<Integer> givenBack = (failure == null && queueFor.toMillis() > 0)
						? stepAside(otherSlots, ownerToken, queueFor) : release(otherSlots, ownerToken, NO_LISTENER);
				return givenBack.handle((count, ignored) -> null).thenCompose((ignored) -> outcome);
			})
			.thenCompose(Function.identity());
	}

	private CompletableFuture<AcquireResult> acquireInOneSlot(List<String> keys, String ownerToken, Duration ttl,
			Duration queueFor) {
		return this.scripts.call("acquire", keys, LockScripts.ACQUIRE,
				this.arguments.acquire(keys, ownerToken, ttl, queueFor), (answer) -> ScriptAnswers.acquired(keys, answer));
	}

	private CompletableFuture<List<Boolean>> extendInOneSlot(List<LeaseExtension> leases) {
		return this.scripts.call("extend", leases.stream().map(LeaseExtension::key).toList(), LockScripts.EXTEND,
				this.arguments.extend(leases), ScriptAnswers::flags);
	}

	/**
	 * Whether release notifications go over shard channels (where the server has them): when the application
	 * asked for it and {@code connectionFactory} is Lettuce's, configured for a cluster; Jedis's subscriber
	 * has none.
	 */
	static boolean shardedPubSub(RedisConnectionFactory connectionFactory, boolean asked) {
		return asked && LETTUCE_PRESENT && Boolean.TRUE.equals(LettuceState.clusterAware(connectionFactory));
	}

	private static ScriptRunner runnerFor(RedisConnectionFactory connectionFactory) {
		ScriptRunner lettuce = LETTUCE_PRESENT ? LettuceScriptRunner.forFactory(connectionFactory) : null;
		return (lettuce != null) ? lettuce : new BlockingScriptRunner(connectionFactory);
	}

}
