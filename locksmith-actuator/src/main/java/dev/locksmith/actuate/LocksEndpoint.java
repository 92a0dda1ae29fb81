package dev.locksmith.actuate;

import java.security.Principal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.actuate.endpoint.annotation.DeleteOperation;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.context.ApplicationEventPublisher;

import dev.locksmith.actuate.ClusterWaits.Look;
import dev.locksmith.annotation.LockMode;
import dev.locksmith.core.LockAdministration;
import dev.locksmith.core.LockAdministration.StoredLock;
import dev.locksmith.core.LockInfo;
import dev.locksmith.core.LockService;
import dev.locksmith.core.KeyMasking;
import dev.locksmith.core.WaitQueue;

/**
 * The {@code locks} endpoint: the locks this instance holds, or with {@code ?scope=cluster} every
 * lock in the store with its waiters and the deadlocks among them, and their forced release. Keys are masked unless
 * {@code management.endpoint.locks.show-values} allows them. Read-only by default: the release is there only
 * with {@code management.endpoint.locks.access=unrestricted}.
 *
 * @since 0.1.0
 */
@Endpoint(id = "locks", defaultAccess = Access.READ_ONLY)
public class LocksEndpoint {

	private static final Log logger = LogFactory.getLog(LocksEndpoint.class);

	/** Most locks listed for {@code scope=cluster}. */
	static final int CLUSTER_LIMIT = 1000;

	private final LockService locks;

	private final LockAdministration administration;

	private final Show showKeys;

	private final Set<String> roles;

	private final int maxWaiters;

	private final ClusterWaits waits;

	/**
	 * The endpoint on {@code locks} and {@code administration}; the cluster view shows the {@code maxWaiters}
	 * longest waits unless asked for another number, and each deadlock it finds is published to
	 * {@code events} as a {@link LockDeadlockEvent}.
	 */
	public LocksEndpoint(LockService locks, LockAdministration administration, Show showKeys, Set<String> roles,
			int maxWaiters, ApplicationEventPublisher events) {
		if (maxWaiters < 0) {
			throw new IllegalArgumentException("maxWaiters must not be negative, was " + maxWaiters);
		}
		this.locks = locks;
		this.administration = administration;
		this.showKeys = showKeys;
		this.roles = roles;
		this.maxWaiters = maxWaiters;
		this.waits = new ClusterWaits(administration, new DeadlockReports(events::publishEvent));
	}

	/**
	 * This instance's locks, or with {@code scope=cluster} the store's, each with its waiters among the
	 * {@code waiters} longest waits (default: the configured number).
	 */
	@ReadOperation
	public LocksDescriptor locks(@Nullable String scope, @Nullable Integer waiters, SecurityContext securityContext) {
		boolean show = this.showKeys.isShown(securityContext, this.roles);
		if (scope == null || scope.equals("instance")) {
			return new InstanceLocks("instance",
					this.locks.heldLocks().stream().map((lock) -> HeldLock.of(lock, show)).toList());
		}
		if (scope.equals("cluster")) {
			int shown = (waiters != null) ? waiters : this.maxWaiters;
			if (shown < 0) {
				throw new InvalidEndpointRequestException("waiters must not be negative, was " + shown,
						"waiters must not be negative");
			}
			List<StoredLock> stored = this.administration.storedLocks(CLUSTER_LIMIT + 1);
			Look look = this.waits.look(shown);
			return new ClusterLocks("cluster", this.administration.storeDescription(),
					stored.stream().limit(CLUSTER_LIMIT).map((lock) -> ClusterLock.of(lock, show, look)).toList(),
					stored.size() > CLUSTER_LIMIT, Waits.of(look, show));
		}
		throw new InvalidEndpointRequestException("Unknown scope '" + scope + "': use 'instance' or 'cluster'",
				"Unknown scope: use 'instance' or 'cluster'");
	}

	/**
	 * Deletes the lock of {@code key} whatever its owner, and says whether there was one. Logged at
	 * WARN with who asked; the fencing counter is kept, so the evicted holder's fenced writes stay
	 * rejected.
	 */
	@DeleteOperation
	public ForcedRelease release(@Selector String key, SecurityContext securityContext) {
		Principal principal = securityContext.getPrincipal();
		String who = (principal != null) ? principal.getName() : "an anonymous caller";
		boolean released = this.administration.forceRelease(key);
		logger.warn("Forced release of lock '" + KeyMasking.mask(key) + "' requested by " + who + " through the locks endpoint: "
				+ (released ? "released" : "no such lock"));
		return new ForcedRelease(key, released);
	}

	/** What the endpoint returns. */
	public sealed interface LocksDescriptor permits InstanceLocks, ClusterLocks {

	}

	/** The locks held by this instance. */
	public record InstanceLocks(String scope, List<HeldLock> locks) implements LocksDescriptor {
	}

	/**
	 * Every lock in the store; {@code truncated} when more than {@value #CLUSTER_LIMIT} exist; and what the
	 * waits add up to.
	 */
	public record ClusterLocks(String scope, String store, List<ClusterLock> locks, boolean truncated, Waits waits)
			implements LocksDescriptor {
	}

	/**
	 * The waits across the fleet: whether the store lists its queues ({@code listed}), how many owners wait
	 * in all, how many of them the locks show (the longest waits), and the deadlocks of the wait-for graph.
	 */
	public record Waits(boolean listed, int waiting, int shown, List<Deadlock> deadlocks) {

		static Waits of(Look look, boolean showKeys) {
			return new Waits(look.listed(), look.waiting(), look.shown().size(),
					look.deadlocks().stream().map((deadlock) -> Deadlock.of(deadlock, showKeys)).toList());
		}

	}

	/**
	 * Threads that wait for one another's locks in a cycle: none of them goes on until a wait time ends.
	 * Threads are named {@code <instance id>#<thread id>}; keys are masked as in the locks.
	 */
	public record Deadlock(List<String> threads, List<String> locks) {

		static Deadlock of(WaitForGraph.Deadlock deadlock, boolean showKeys) {
			return new Deadlock(deadlock.threads(), deadlock.locks()
				.stream()
				.map((lock) -> KeyMasking.mask(lock.name(), lock.key(), showKeys))
				.toList());
		}

	}

	/** The answer to a forced release. */
	public record ForcedRelease(String key, boolean released) {
	}

	/**
	 * How a lock is held: {@code WRITE} by one owner alone, {@code READ} by readers together, or
	 * {@code PERMIT} by up to {@code permits} holders at once, each with a permit of its own.
	 */
	public enum Mode {

		/** An exclusive lock: one owner. */
		WRITE,

		/** A read lock, shared with the other readers of the key. */
		READ,

		/** One of the permits of a lock that admits several holders at once. */
		PERMIT;

		static Mode of(LockMode mode, int permits) {
			if (permits > 1) {
				return PERMIT;
			}
			return (mode == LockMode.READ) ? READ : WRITE;
		}

	}

	/** One lock held by this instance, as a writer, a reader or one of a number of permit holders. */
	public record HeldLock(@Nullable String name, String key, Mode mode, int permits, long fencingToken,
			Instant acquiredAt, Instant expiresAt, long renewals, String ownerThread, @Nullable String method) {

		static HeldLock of(LockInfo lock, boolean showKey) {
			return new HeldLock(lock.name(), KeyMasking.mask(lock.name(), lock.key(), showKey),
					Mode.of(lock.mode(), lock.permits()), lock.permits(), lock.fencingToken(), lock.acquiredAt(),
					lock.expiresAt(), lock.renewals(), lock.ownerThread(), lock.holder());
		}

	}

	/**
	 * One lock in the store, with its name: only the key's part after the name is masked. A lock that
	 * readers or permit holders share lists each holder with its own lease; its remaining ttl and holder
	 * instance are those of the lease that ends last. Where the store lists its queues: the last fencing
	 * token issued for the key (the holder's, for an exclusive lock) and how long ago, by the store's clock,
	 * and its waiters among the longest waits, in queue order.
	 */
	public record ClusterLock(@Nullable String name, String key, Mode mode, int permits, long remainingTtlMillis,
			String holderInstance, List<Holder> holders, @Nullable Long fencingToken, @Nullable Long heldForMillis,
			List<Waiter> waiters) {

		static ClusterLock of(StoredLock lock, boolean showKey, Look waits) {
			WaitQueue queue = waits.queue(lock.key());
			Duration heldFor = (queue != null) ? queue.heldFor() : null;
			return new ClusterLock(lock.name(), KeyMasking.mask(lock.name(), lock.key(), showKey),
					Mode.of(lock.mode(), lock.permits()), lock.permits(), lock.remainingTtl().toMillis(),
					lock.holderInstance(),
					lock.holders()
						.stream()
						.map((holder) -> new Holder(holder.instance(), holder.remainingLease().toMillis()))
						.toList(),
					(queue != null && queue.fencingToken() > 0) ? queue.fencingToken() : null,
					(heldFor != null) ? heldFor.toMillis() : null,
					waits.shownWaiters(lock.key()).stream().map((waiter) -> Waiter.of(waiter, waits.now())).toList());
		}

	}

	/**
	 * One owner in a lock's queue: its instance, the lock's name, its thread, how long it has waited (by
	 * its instance's clock, {@code null} when its token does not say), how long until its wait ends, and
	 * whether it is parked: queued here while it waits for another key of its request.
	 */
	public record Waiter(String instance, @Nullable String name, @Nullable String thread,
			@Nullable Long waitingForMillis, long waitLeftMillis, boolean parked) {

		static Waiter of(WaitQueue.Waiter waiter, Instant now) {
			Duration waitingFor = ClusterWaits.waitingFor(waiter, now);
			return new Waiter(waiter.owner().instance(), waiter.owner().name(), waiter.owner().thread(),
					(waitingFor != null) ? waitingFor.toMillis() : null, waiter.waitLeft().toMillis(), waiter.parked());
		}

	}

	/** One holder of a lock in the store: the instance that holds it and how long its own lease lasts. */
	public record Holder(String instance, long remainingLeaseMillis) {
	}

}
