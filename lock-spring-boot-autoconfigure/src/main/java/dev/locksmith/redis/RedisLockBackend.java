package dev.locksmith.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.util.ClassUtils;

import dev.locksmith.core.LockBackend;
import dev.locksmith.core.LockUnavailableException;
import dev.locksmith.core.internal.DaemonThreadFactory;
import dev.locksmith.core.internal.KeyMasking;
import dev.locksmith.core.internal.StoreBusyException;
import dev.locksmith.core.internal.Shares;

/**
 * {@link LockBackend} on one Redis deployment (standalone, Sentinel or Cluster) through Spring Data
 * Redis. Each operation is one Lua script, sent through Lettuce's asynchronous API (or, for clients
 * without one, a bounded pool). Waiters stand in a queue per key in Redis, and a release hands the
 * lock to the first of them under a short claim lease. On a cluster, an operation on keys of several
 * hash slots runs one script per slot; several locks spanning slots are taken slot by slot and given
 * back when a later slot is busy or fails, so the grant stays all or nothing. An owner token that names
 * a share (a reader's or a permit holder's, one key each) takes, renews and releases its own share.
 *
 * @since 0.1.0
 */
public final class RedisLockBackend implements LockBackend, AutoCloseable {

	/** How long a waiter handed a lock has to take it, unless configured otherwise. */
	static final Duration DEFAULT_CLAIM_LEASE = Duration.ofSeconds(2);

	/** How long a fencing counter outlives its last grant; the server clock floor covers the rest. */
	static final Duration FENCE_COUNTER_LIFETIME = Duration.ofHours(1);

	private static final Log logger = LogFactory.getLog(RedisLockBackend.class);

	private static final DaemonThreadFactory WARM_UP_THREADS = new DaemonThreadFactory("locksmith-warm-up");

	static final boolean LETTUCE_PRESENT = ClassUtils.isPresent("io.lettuce.core.RedisClient", null);

	private final ScriptRunner scripts;

	private final RedisLockKeys keys;

	private final HashSlotPartitioner slots;

	private final String claimLease;

	private final EvictionPolicyCheck evictionPolicy;

	private final TopologyRefreshCheck topologyRefresh;
	private final RedisShares shares;

	public RedisLockBackend(RedisConnectionFactory connectionFactory, RedisLockKeys keys) {
		this(connectionFactory, keys, DEFAULT_CLAIM_LEASE);
	}

	/**
	 * A backend whose releases give each waiter handed a lock {@code claimLease} to take it: a waiter
	 * that died meanwhile holds up the next one for at most that long.
	 */
	public RedisLockBackend(RedisConnectionFactory connectionFactory, RedisLockKeys keys, Duration claimLease) {
		if (claimLease.toMillis() < 1) {
			throw new IllegalArgumentException("claimLease must be at least 1ms, was " + claimLease);
		}
		this.scripts = runnerFor(connectionFactory);
		this.keys = keys;
		this.slots = new HashSlotPartitioner(this.scripts::isCluster);
		this.claimLease = millis(claimLease);
		this.evictionPolicy = new EvictionPolicyCheck(connectionFactory);
		this.topologyRefresh = new TopologyRefreshCheck(connectionFactory);
		this.shares = new RedisShares(keys, this.claimLease, this::call);
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
				this.scripts.warmUp(LockScripts.HOT_PATH).join();
			}
			catch (RuntimeException ex) {
				logger.info("Could not warm up the Redis lock connection; the first lock call will: " + ex);
			}
			this.evictionPolicy.check();
			this.topologyRefresh.check();
		}, (task) -> WARM_UP_THREADS.newThread(task).start());
	}

	@Override
	public CompletableFuture<AcquireResult> tryAcquire(List<String> keys, String ownerToken, Duration ttl,
			Duration queueFor) {
		if (Shares.shareOf(ownerToken) != null) {
			return this.shares.acquire(keys.get(0), ownerToken, ttl, queueFor);
		}
		List<List<String>> groups = groupBySlot(keys);
		if (groups.size() == 1) {
			return acquireInOneSlot(keys, ownerToken, ttl, queueFor);
		}
		return acquireSlotBySlot(groups, 0, new ArrayList<>(), ownerToken, ttl, queueFor);
	}

	@Override
	public CompletableFuture<Integer> release(List<String> keys, String ownerToken) {
		if (Shares.shareOf(ownerToken) != null) {
			return this.shares.release(keys.get(0), ownerToken);
		}
		return inEachSlot(keys, (group) -> giveBackInOneSlot("release", LockScripts.RELEASE, group, ownerToken));
	}

	/** Gives back the locks of {@code keys} and parks the waiter in their queues for {@code queueFor}. */
	private CompletableFuture<Integer> stepAside(List<String> keys, String ownerToken, Duration queueFor) {
		return inEachSlot(keys,
				(group) -> giveBackInOneSlot("step aside", LockScripts.STEP_ASIDE, group, ownerToken, millis(queueFor)));
	}

	private CompletableFuture<Integer> inEachSlot(List<String> keys,
			Function<List<String>, CompletableFuture<Integer>> operation) {
		CompletableFuture<Integer> total = CompletableFuture.completedFuture(0);
		for (List<String> group : groupBySlot(keys)) {
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
		for (List<Integer> group : this.slots
			.partition(leases.stream().map((lease) -> this.keys.lockKey(lease.key())).toList())) {
			Map<Boolean, List<Integer>> byKind = group.stream()
				.collect(Collectors.partitioningBy((i) -> Shares.shareOf(leases.get(i).ownerToken()) != null));
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
	 * Raises the fencing counter of each key to at least its floor, where {@code ownerToken} still holds
	 * every lock of {@code keys}: how a quorum of independent servers (Redlock) makes the nodes that
	 * granted a lock remember the highest token any of them issued for it.
	 * @param floors the lowest counter of each key, in the order of {@code keys}
	 * @return whether the owner still held every lock; when not, no counter of its slot was changed
	 */
	public CompletableFuture<Boolean> raiseFencingTokens(List<String> keys, String ownerToken, List<Long> floors) {
		CompletableFuture<Boolean> raised = CompletableFuture.completedFuture(true);
		for (List<Integer> group : this.slots.partition(keys.stream().map(this.keys::lockKey).toList())) {
			List<String> groupKeys = group.stream().map(keys::get).toList();
			List<String> redisKeys = new ArrayList<>(groupKeys.size() * 2);
			addNames(redisKeys, groupKeys, this.keys::lockKey);
			addNames(redisKeys, groupKeys, this.keys::fenceKey);
			List<String> args = new ArrayList<>(groupKeys.size() + 2);
			args.add(ownerToken);
			args.add(millis(FENCE_COUNTER_LIFETIME));
			group.stream().map((i) -> Long.toString(floors.get(i))).forEach(args::add);
			raised = raised.thenCombine(
					call("fencing write-back", groupKeys, LockScripts.RAISE_FENCES, redisKeys, args, (held) -> held == 1L),
					Boolean::logicalAnd);
		}
		return raised;
	}

	/**
	 * Tells the waiters of {@code keys} that {@code ownerToken} freed them, as a release notification
	 * that hands the locks to nobody (a zero claim lease): for a store whose waiters stand in no queue
	 * (Redlock).
	 */
	public CompletableFuture<Void> announceRelease(List<String> keys, String ownerToken) {
		List<String> args = new ArrayList<>(keys.size() + 1);
		args.add(ownerToken);
		addNames(args, keys, this.keys::releaseChannel);
		return call("release notice", keys, LockScripts.ANNOUNCE_RELEASE, List.of(), args, (published) -> null);
	}

	@Override
	public boolean grantsShares() {
		return true;
	}

	@Override
	public CompletableFuture<Boolean> isLocked(String key) {
		return call("lookup", List.of(key), LockScripts.IS_LOCKED, List.of(this.keys.lockKey(key)), List.of(),
				(exists) -> exists == 1L);
	}

	@Override
	public void close() {
		this.scripts.close();
	}

	/**
	 * Takes the slots one after the other. When one refuses a waiter, it steps aside in every other slot
	 * before the outcome is reported: the locks it took or was handed there are given back, and it stays
	 * parked in their queues, keeping its place while it waits for the slot that refused it. When one
	 * fails, or the caller does not wait, every other slot is released, queue places included.
	 */
	private CompletableFuture<AcquireResult> acquireSlotBySlot(List<List<String>> groups, int next,
			List<Long> fencingTokens, String ownerToken, Duration ttl, Duration queueFor) {
		if (next == groups.size()) {
			return CompletableFuture.completedFuture(AcquireResult.granted(fencingTokens));
		}
		List<String> otherSlots = groups.stream()
			.filter((group) -> group != groups.get(next))
			.flatMap(List::stream)
			.toList();
		return acquireInOneSlot(groups.get(next), ownerToken, ttl, queueFor).handle((result, failure) -> {
			if (failure == null && result.acquired()) {
				fencingTokens.addAll(result.fencingTokens());
				return acquireSlotBySlot(groups, next + 1, fencingTokens, ownerToken, ttl, queueFor);
			}
			CompletableFuture<AcquireResult> outcome = (failure != null) ? CompletableFuture.failedFuture(failure)
					: CompletableFuture.completedFuture(result);
			CompletableFuture<Integer> givenBack = (failure == null && queueFor.toMillis() > 0)
					? stepAside(otherSlots, ownerToken, queueFor) : release(otherSlots, ownerToken);
			return givenBack.handle((count, ignored) -> null).thenCompose((ignored) -> outcome);
		}).thenCompose(Function.identity());
	}

	private CompletableFuture<AcquireResult> acquireInOneSlot(List<String> keys, String ownerToken, Duration ttl,
			Duration queueFor) {
		List<String> redisKeys = new ArrayList<>(keys.size() * 5);
		addNames(redisKeys, keys, this.keys::lockKey);
		addNames(redisKeys, keys, this.keys::fenceKey);
		addNames(redisKeys, keys, this.keys::queueKey);
		addNames(redisKeys, keys, this.keys::deadlinesKey);
		addNames(redisKeys, keys, this.keys::holdersKey);
		List<String> args = new ArrayList<>(keys.size() + 5);
		args.add(ownerToken);
		args.add(millis(ttl));
		args.add(millis(FENCE_COUNTER_LIFETIME));
		args.add(millis(queueFor));
		args.add(this.claimLease);
		addNames(args, keys, this.keys::releaseChannel);
		return call("acquire", keys, LockScripts.ACQUIRE, redisKeys, args, (result) -> {
			if ((Long) result.get(0) == 1L) {
				List<Long> fencingTokens = new ArrayList<>(result.size() - 1);
				for (int i = 1; i < result.size(); i++) {
					fencingTokens.add((Long) result.get(i));
				}
				return AcquireResult.granted(fencingTokens);
			}
			String busyKey = keys.get(((Long) result.get(1)).intValue() - 1);
			return AcquireResult.busy(busyKey, remainingLease((Long) result.get(2)));
		});
	}

	/**
	 * The retry hint from a busy lock's PTTL: 0 means its lease ends within this millisecond, so look
	 * again in one (not "no hint", which would wait a whole re-check interval); -1 means it has no lease.
	 */
	static Duration remainingLease(long pttl) {
		return Duration.ofMillis((pttl == 0) ? 1 : Math.max(0, pttl));
	}

	/**
	 * Runs a script that frees locks of one slot: it names each lock, fencing counter, queue, deadlines
	 * and holders of shares, then takes the owner, the claim lease, the counters' lifetime, {@code options} and the
	 * channels.
	 */
	private CompletableFuture<Integer> giveBackInOneSlot(String operation, RedisScript<Long> script, List<String> keys,
			String ownerToken, String... options) {
		List<String> redisKeys = new ArrayList<>(keys.size() * 5);
		addNames(redisKeys, keys, this.keys::lockKey);
		addNames(redisKeys, keys, this.keys::fenceKey);
		addNames(redisKeys, keys, this.keys::queueKey);
		addNames(redisKeys, keys, this.keys::deadlinesKey);
		addNames(redisKeys, keys, this.keys::holdersKey);
		List<String> args = new ArrayList<>(keys.size() + 3 + options.length);
		args.add(ownerToken);
		args.add(this.claimLease);
		args.add(millis(FENCE_COUNTER_LIFETIME));
		args.addAll(List.of(options));
		addNames(args, keys, this.keys::releaseChannel);
		return call(operation, keys, script, redisKeys, args, Long::intValue);
	}

	private CompletableFuture<List<Boolean>> extendInOneSlot(List<LeaseExtension> leases) {
		List<String> lockKeys = new ArrayList<>(leases.size());
		List<String> args = new ArrayList<>(leases.size() * 3);
		for (LeaseExtension lease : leases) {
			lockKeys.add(this.keys.lockKey(lease.key()));
			args.add(lease.ownerToken());
			args.add(millis(lease.ttl()));
			args.add(lease.last() ? "1" : "0");
		}
		return call("extend", leases.stream().map(LeaseExtension::key).toList(), LockScripts.EXTEND, lockKeys, args,
				(extended) -> extended.stream().map((flag) -> (Long) flag == 1L).toList());
	}

	/**
	 * Runs a script and reads its answer with {@code reader}, in one stage; a failure or an empty
	 * answer becomes a {@link LockUnavailableException} naming the operation and its keys.
	 */
	private <T, R> CompletableFuture<R> call(String operation, List<String> keys, RedisScript<T> script,
			List<String> redisKeys, List<String> args, Function<T, R> reader) {
		CompletableFuture<T> call;
		try {
			call = this.scripts.run(script, redisKeys, args);
		}
		catch (RuntimeException ex) {
			call = CompletableFuture.failedFuture(ex);
		}
		return call.handle((result, failure) -> {
			if (failure != null) {
				Throwable cause = (failure instanceof CompletionException && failure.getCause() != null)
						? failure.getCause() : failure;
				if (cause instanceof LockUnavailableException unavailable) {
					throw unavailable;
				}
				String message = "Redis failed " + describe(operation, keys) + ": " + cause.getMessage();
				throw isRefusedBeforeRunning(cause) ? new StoreBusyException(message, cause)
						: new LockUnavailableException(message, cause);
			}
			if (result == null) {
				throw new LockUnavailableException("Redis returned no result for " + describe(operation, keys), null);
			}
			return reader.apply(result);
		});
	}

	/**
	 * Whether Redis refused a script because its slot is migrating: {@code TRYAGAIN} when only some of
	 * its keys have moved, or a "non local key" when a command of the script found a key gone. The
	 * scripts touch no key after deleting it, so the second comes before any write too (see
	 * {@code free} in hand-on.lua), and sending the script again is safe.
	 */
	private static boolean isRefusedBeforeRunning(Throwable cause) {
		String message = String.valueOf(cause.getMessage());
		return message.startsWith("TRYAGAIN") || message.contains("non local key");
	}

	private static String describe(String operation, List<String> keys) {
		return operation + " of " + KeyMasking.describe(keys);
	}

	/** The keys grouped by hash slot; one key is one group, found without naming it. */
	private List<List<String>> groupBySlot(List<String> keys) {
		if (keys.size() == 1) {
			return List.of(keys);
		}
		return this.slots.partition(keys.stream().map(this.keys::lockKey).toList())
			.stream()
			.map((group) -> group.stream().map(keys::get).toList())
			.toList();
	}

	private static ScriptRunner runnerFor(RedisConnectionFactory connectionFactory) {
		ScriptRunner lettuce = LETTUCE_PRESENT ? LettuceScriptRunner.forFactory(connectionFactory) : null;
		return (lettuce != null) ? lettuce : new BlockingScriptRunner(connectionFactory);
	}

	/** Adds the Redis name of each key, in order. */
	private static void addNames(List<String> names, List<String> keys, UnaryOperator<String> naming) {
		for (String key : keys) {
			names.add(naming.apply(key));
		}
	}

	private static String millis(Duration duration) {
		return Long.toString(duration.toMillis());
	}

}
