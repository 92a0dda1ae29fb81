package dev.locksmith.redis;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.jspecify.annotations.Nullable;
import org.springframework.context.SmartLifecycle;

import dev.locksmith.core.LockStore;
import dev.locksmith.core.ReleaseNotifications;
import dev.locksmith.core.StoreAdministration;
import dev.locksmith.redis.StoreParts.Part;

/**
 * The Redlock store: a lock is held once a majority of 3 or 5 independent Redis servers granted it,
 * each running the same scripts as {@link RedisLockStore}, over connections of its own apart from the
 * application's {@code spring.data.redis} one. Its lock calls, {@link #administration()} and
 * {@link #notifications()} are parts made on first use, and the store starts, stops and closes its
 * connections and the parts it made. As a bean, the application context starts it before the web
 * server (whose phases are {@code DEFAULT_PHASE - 2048} and up) and stops it after the server has
 * drained; without a context, call {@link #start()} and {@link #close()}.
 *
 * @since 0.1.0
 */
public final class RedlockLockStore extends PartsLockStore {

	private final RedlockServers servers;

	private final RedisLockKeys keys;

	private final Duration timeout;

	private final @Nullable Duration nodeTimeout;

	private final Duration shortestTtl;

	private @Nullable RedlockLockAdministration administration;

	private @Nullable RedlockReleaseNotifications notifications;

	private RedlockLockStore(Builder builder) {
		this.timeout = builder.timeout;
		RedlockServers servers = RedlockServers.of(builder.nodes, builder.source, nodeTimeoutBound(),
				builder.maxReconnectDelay);
		this.servers = this.parts.add(servers, new Part(servers::start, servers::stop, servers::close));
		this.keys = builder.keys;
		this.nodeTimeout = builder.nodeTimeout;
		this.shortestTtl = builder.shortestTtl;
	}

	/**
	 * Starts a builder for a store on {@code nodes}: {@code redis://[[user]:password@]host[:port][/database]}
	 * URLs, or {@code rediss://} for TLS, of 3 or 5 independent Redis servers (no replicas of one another).
	 */
	public static Builder builder(List<String> nodes) {
		return new Builder(nodes);
	}

	/** The part that takes a lock on a majority of the servers, with fencing tokens that only grow. */
	@Override
	LockStore makeLocks() {
		RedlockLockBackend.Builder builder = RedlockLockBackend.builder(this.servers.connectionFactories(), this.keys)
			.maxNodeTimeout(nodeTimeoutBound());
		if (this.nodeTimeout != null) {
			builder.nodeTimeout(this.nodeTimeout);
		}
		RedlockLockBackend made = builder.build();
		return this.parts.add(made, new Part(made::warmUp, Part.NOTHING, made::close));
	}

	/**
	 * What operators see and do across the servers, each asked within half the store timeout: the locks
	 * a majority holds, forced release on every server, and the state of each.
	 */
	@Override
	public synchronized StoreAdministration administration() {
		if (this.administration == null) {
			RedlockLockAdministration made = new RedlockLockAdministration(this.servers.connectionFactories(),
					this.keys, this.timeout.dividedBy(2), this::clockDetails);
			this.administration = this.parts.add(made, Part.closed(made::close));
		}
		return this.administration;
	}

	/**
	 * The hand-overs announced by any of the servers, each over its own subscriber connection; started
	 * at once when the store is running, else when it starts.
	 */
	@Override
	public synchronized ReleaseNotifications notifications() {
		if (this.notifications == null) {
			RedlockReleaseNotifications made = new RedlockReleaseNotifications(this.servers.connectionFactories(),
					this.keys);
			this.notifications = this.parts.add(made, new Part(() -> {
				made.afterPropertiesSet();
				made.start();
			}, made::stop, made::destroy));
		}
		return this.notifications;
	}

	/**
	 * For health: each server's clock offset against this process's wall clock by name
	 * ({@code clockOffsets}), and a {@code clockWarning} when two servers' clocks are surely further apart
	 * than 1% of the shortest ttl plus 2ms. Waits at most half the store timeout for each server.
	 */
	private Map<String, Object> clockDetails() {
		return this.servers.clockDetails(this.shortestTtl, this.timeout.dividedBy(2));
	}

	/** Started before, and stopped after, the web server. */
	@Override
	public int getPhase() {
		return SmartLifecycle.DEFAULT_PHASE - 4097;
	}

	/** A whole acquisition (grants, fencing write-back, release when refused) fits in the store timeout. */
	private Duration nodeTimeoutBound() {
		Duration quarter = this.timeout.dividedBy(4);
		return (quarter.toMillis() < 1) ? Duration.ofMillis(1) : quarter;
	}

	/** Configures a {@link RedlockLockStore}. */
	public static final class Builder {

		/** The default of {@link #maxReconnectDelay(Duration)}. */
		static final Duration MAX_RECONNECT_DELAY = Duration.ofSeconds(1);

		private final List<String> nodes;

		private String source = "nodes";

		private RedisLockKeys keys = new RedisLockKeys("lock:");

		private Duration timeout = Duration.ofSeconds(2);

		private @Nullable Duration nodeTimeout;

		private Duration shortestTtl = Duration.ofSeconds(30);

		private Duration maxReconnectDelay = MAX_RECONNECT_DELAY;

		private Builder(List<String> nodes) {
			this.nodes = List.copyOf(Objects.requireNonNull(nodes, "nodes must not be null"));
		}

		/** What the node URLs are called in error messages, such as the property they come from; default {@code nodes}. */
		public Builder source(String source) {
			this.source = source;
			return this;
		}

		/**
		 * What every key and channel name of the store starts with; default {@code lock:}.
		 * @throws IllegalArgumentException when it contains <code>{</code> or <code>}</code>
		 */
		public Builder keyPrefix(String keyPrefix) {
			this.keys = new RedisLockKeys(keyPrefix);
			return this;
		}

		/**
		 * Bound on a whole round across the servers, default 2s: each server's answer is awaited a quarter
		 * of it at most, and half of it for the administration's questions.
		 */
		public Builder timeout(Duration timeout) {
			this.timeout = RedlockLockBackend.Builder.requirePositive(timeout, "timeout");
			return this;
		}

		/** Bounds every server's answer by this fixed time, instead of 5% of each call's ttl. */
		public Builder nodeTimeout(Duration nodeTimeout) {
			this.nodeTimeout = RedlockLockBackend.Builder.requirePositive(nodeTimeout, "nodeTimeout");
			return this;
		}

		/**
		 * The shortest lease the application takes, default 30s: the administration's details warn when
		 * two servers' clocks are surely further apart than 1% of it plus 2ms.
		 */
		public Builder shortestTtl(Duration shortestTtl) {
			this.shortestTtl = RedlockLockBackend.Builder.requirePositive(shortestTtl, "shortestTtl");
			return this;
		}

		/**
		 * Longest pause between two attempts to reconnect to a server that went away, default 1s: a server
		 * back from an outage counts again toward the quorum within about this long. Lettuce's own delay
		 * doubles after each failed attempt up to 30 s.
		 */
		public Builder maxReconnectDelay(Duration maxReconnectDelay) {
			this.maxReconnectDelay = RedlockLockBackend.Builder.requirePositive(maxReconnectDelay,
					"maxReconnectDelay");
			return this;
		}

		/**
		 * Checks the node URLs and makes a connection factory for each, not connected until the store
		 * starts.
		 * @throws IllegalArgumentException when there are not 3 or 5 URLs, one is malformed, or two name
		 * the same server
		 */
		public RedlockLockStore build() {
			return new RedlockLockStore(this);
		}

	}

}
