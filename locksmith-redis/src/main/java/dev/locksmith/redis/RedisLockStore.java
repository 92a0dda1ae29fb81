package dev.locksmith.redis;

import java.time.Duration;
import java.util.Objects;

import org.jspecify.annotations.Nullable;
import org.springframework.context.SmartLifecycle;
import org.springframework.data.redis.connection.RedisConnectionFactory;

import dev.locksmith.core.LockStore;
import dev.locksmith.core.ReleaseNotifications;
import dev.locksmith.core.StoreAdministration;
import dev.locksmith.redis.StoreParts.Part;

/**
 * The lock store on one Redis deployment (standalone, Sentinel or cluster), through a Spring Data Redis
 * connection factory, the {@link LockStore} that a {@link dev.locksmith.core.DefaultLockService} runs on.
 * Its lock calls, {@link #administration()} and {@link #notifications()} are parts made on first use,
 * and the store starts, stops and closes the parts it made. As a bean, the application context starts it
 * before the web server (whose phases are {@code DEFAULT_PHASE - 2048} and up) and stops it after the
 * server has drained; without a context, call {@link #start()} and {@link #close()}.
 *
 * @since 0.1.0
 */
public final class RedisLockStore extends PartsLockStore {

	private final RedisConnectionFactory connectionFactory;

	private final RedisLockKeys keys;

	private final Duration claimLease;

	private final boolean shardedPubSub;

	private final int cohortPasses;

	private @Nullable RedisLockAdministration administration;

	private @Nullable RedisReleaseNotifications notifications;

	private RedisLockStore(Builder builder) {
		this.connectionFactory = builder.connectionFactory;
		this.keys = builder.keys;
		this.claimLease = builder.claimLease;
		this.shardedPubSub = builder.shardedPubSub;
		this.cohortPasses = builder.cohortPasses;
	}

	/** Starts a builder for a store on {@code connectionFactory}, which the application starts and stops. */
	public static Builder builder(RedisConnectionFactory connectionFactory) {
		return new Builder(connectionFactory);
	}

	/** The part that takes, renews and releases locks with one script call a round trip. */
	@Override
	LockStore makeLocks() {
		RedisLockBackend made = new RedisLockBackend(this.connectionFactory, this.keys, this.claimLease,
				this.shardedPubSub, this.cohortPasses);
		return this.parts.add(made, new Part(made::warmUp, Part.NOTHING, made::close));
	}

	/** What operators see and do: the locks held, forced release, a liveness check, the cluster topology. */
	@Override
	public synchronized StoreAdministration administration() {
		if (this.administration == null) {
			RedisLockAdministration made = new RedisLockAdministration(this.connectionFactory, this.keys,
					this.claimLease, this.shardedPubSub);
			this.administration = this.parts.add(made, Part.closed(made::close));
		}
		return this.administration;
	}

	/**
	 * The hand-overs announced over pub/sub, on one subscriber connection; started at once when the
	 * store is running, else when it starts.
	 */
	@Override
	public synchronized ReleaseNotifications notifications() {
		if (this.notifications == null) {
			RedisReleaseNotifications made = new RedisReleaseNotifications(this.connectionFactory, this.keys,
					this.shardedPubSub);
			this.notifications = this.parts.add(made, new Part(() -> {
				made.afterPropertiesSet();
				made.start();
			}, made::stop, made::destroy));
		}
		return this.notifications;
	}

	/**
	 * Starts the release notifications, and warms up the backend on a short-lived background thread:
	 * connects and loads the scripts, so that the first lock call pays for neither, and checks that
	 * Redis does not evict lock keys.
	 * @throws IllegalStateException when Redis answers within 2s with a version older than 6.2
	 */
	@Override
	public void start() {
		ServerVersionCheck.requireSupported(this.connectionFactory);
		super.start();
	}

	/** Started before, and stopped after, the web server. */
	@Override
	public int getPhase() {
		return SmartLifecycle.DEFAULT_PHASE - 4096;
	}

	/** Configures a {@link RedisLockStore}. */
	public static final class Builder {

		private final RedisConnectionFactory connectionFactory;

		private RedisLockKeys keys = new RedisLockKeys("lock:");

		private Duration claimLease = RedisLockBackend.DEFAULT_CLAIM_LEASE;

		private boolean shardedPubSub;

		private int cohortPasses = RedisLockBackend.DEFAULT_COHORT_PASSES;

		private Builder(RedisConnectionFactory connectionFactory) {
			this.connectionFactory = Objects.requireNonNull(connectionFactory, "connectionFactory must not be null");
		}

		/**
		 * What every key and channel name of the store starts with; default {@code lock:}.
		 * @throws IllegalArgumentException when it contains <code>{</code> or <code>}</code>, which would
		 * break the hash tag that keeps a lock's keys in one cluster slot
		 */
		public Builder keyPrefix(String keyPrefix) {
			this.keys = new RedisLockKeys(keyPrefix);
			return this;
		}

		/**
		 * How long a waiter handed a lock by a release has to take it: a waiter that died meanwhile holds
		 * up the next one for at most that long; default 2s.
		 * @throws IllegalArgumentException when shorter than 1ms
		 */
		public Builder claimLease(Duration claimLease) {
			if (claimLease.toMillis() < 1) {
				throw new IllegalArgumentException("claimLease must be at least 1ms, was " + claimLease);
			}
			this.claimLease = claimLease;
			return this;
		}

		/**
		 * Whether release notifications go over sharded pub/sub on a Redis Cluster through Lettuce whose
		 * servers have it (Redis 7, Valkey): each is then published within its lock's shard instead of to
		 * every node. Off by default: every application that locks on the cluster must switch it on
		 * together, as a process on classic channels does not hear a sharded notice (its waiters then fall
		 * back to their re-check).
		 */
		public Builder shardedPubSub(boolean shardedPubSub) {
			this.shardedPubSub = shardedPubSub;
			return this;
		}

		/**
		 * How many times in a row a release may hand a lock to a waiter of its own process (the same
		 * instance id) queued behind the first waiter of another process; then the first waiter has it. Each
		 * pass is a grant with its own fencing token and claim lease, and skips the cross-process wake-up.
		 * 0 hands every lock in arrival order; default 2.
		 * @throws IllegalArgumentException when negative
		 */
		public Builder cohortPasses(int cohortPasses) {
			if (cohortPasses < 0) {
				throw new IllegalArgumentException("cohortPasses must not be negative, was " + cohortPasses);
			}
			this.cohortPasses = cohortPasses;
			return this;
		}

		public RedisLockStore build() {
			return new RedisLockStore(this);
		}

	}

}
