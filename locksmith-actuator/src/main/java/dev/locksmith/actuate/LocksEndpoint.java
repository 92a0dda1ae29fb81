package dev.locksmith.actuate;

import java.security.Principal;
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

import dev.locksmith.annotation.LockMode;
import dev.locksmith.core.LockAdministration;
import dev.locksmith.core.LockAdministration.StoredLock;
import dev.locksmith.core.LockInfo;
import dev.locksmith.core.LockService;
import dev.locksmith.core.KeyMasking;

/**
 * The {@code locks} endpoint: the locks this instance holds, or with {@code ?scope=cluster} every
 * lock in the store, and their forced release. Keys are masked unless
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

	public LocksEndpoint(LockService locks, LockAdministration administration, Show showKeys, Set<String> roles) {
		this.locks = locks;
		this.administration = administration;
		this.showKeys = showKeys;
		this.roles = roles;
	}

	@ReadOperation
	public LocksDescriptor locks(@Nullable String scope, SecurityContext securityContext) {
		boolean show = this.showKeys.isShown(securityContext, this.roles);
		if (scope == null || scope.equals("instance")) {
			return new InstanceLocks("instance",
					this.locks.heldLocks().stream().map((lock) -> HeldLock.of(lock, show)).toList());
		}
		if (scope.equals("cluster")) {
			List<StoredLock> stored = this.administration.storedLocks(CLUSTER_LIMIT + 1);
			return new ClusterLocks("cluster", this.administration.storeDescription(),
					stored.stream().limit(CLUSTER_LIMIT).map((lock) -> ClusterLock.of(lock, show)).toList(),
					stored.size() > CLUSTER_LIMIT);
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

	/** Every lock in the store; {@code truncated} when more than {@value #CLUSTER_LIMIT} exist. */
	public record ClusterLocks(String scope, String store, List<ClusterLock> locks, boolean truncated)
			implements LocksDescriptor {
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
	 * instance are those of the lease that ends last.
	 */
	public record ClusterLock(@Nullable String name, String key, Mode mode, int permits, long remainingTtlMillis,
			String holderInstance, List<Holder> holders) {

		static ClusterLock of(StoredLock lock, boolean showKey) {
			return new ClusterLock(lock.name(), KeyMasking.mask(lock.name(), lock.key(), showKey),
					Mode.of(lock.mode(), lock.permits()), lock.permits(), lock.remainingTtl().toMillis(), lock.holderInstance(), lock.holders()
						.stream()
						.map((holder) -> new Holder(holder.instance(), holder.remainingLease().toMillis()))
						.toList());
		}

	}

	/** One holder of a lock in the store: the instance that holds it and how long its own lease lasts. */
	public record Holder(String instance, long remainingLeaseMillis) {
	}

}
