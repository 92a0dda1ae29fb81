package dev.locksmith.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.core.Ordered;

/**
 * Configuration of Locksmith, bound from locksmith.*.
 *
 * @since 0.1.0
 */
@ConfigurationProperties("locksmith")
public class LocksmithProperties {

	/** Whether to auto-configure Locksmith. */
	private boolean enabled = true;

	/** Prefix of every Redis key and channel that Locksmith uses; must not contain '{' or '}'. */
	private String keyPrefix = "lock:";

	/** Lease of a lock when none is given. */
	private Duration defaultTtl = Duration.ofSeconds(30);

	/** How long to wait for a busy lock when no wait time is given; 0 tries once. */
	private Duration defaultWaitTime = Duration.ZERO;

	/** Bound on any one Redis call made for a lock; past it, acquisition fails closed. */
	private Duration redisTimeout = Duration.ofSeconds(2);

	/**
	 * How much earlier than Redis this instance counts a lease as ended, for the difference between its
	 * clock and Redis's: isHeld() turns false this long before Redis may let the lock go.
	 */
	private Duration driftAllowance = Duration.ofMillis(10);

	/** Id of this instance, written into owner tokens; default "<host>-<pid>". */
	private @Nullable String instanceId;

	/**
	 * Where locks are kept: 'redis', the application's Redis; 'redlock', a majority of the independent
	 * Redis servers in locksmith.redlock.nodes; 'jdbc', the application's PostgreSQL DataSource (needs
	 * dev.locksmith:locksmith-jdbc); or 'in-memory', locks within this JVM only, for tests (needs
	 * dev.locksmith:locksmith-test).
	 */
	private Store store = Store.REDIS;

	private final Renewal renewal = new Renewal();

	private final Wait wait = new Wait();

	private final Aspect aspect = new Aspect();

	private final Health health = new Health();

	private final Web web = new Web();

	private final Redlock redlock = new Redlock();

	private final Redis redis = new Redis();

	private final Jdbc jdbc = new Jdbc();

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public String getKeyPrefix() {
		return this.keyPrefix;
	}

	public void setKeyPrefix(String keyPrefix) {
		this.keyPrefix = keyPrefix;
	}

	public Duration getDefaultTtl() {
		return this.defaultTtl;
	}

	public void setDefaultTtl(Duration defaultTtl) {
		this.defaultTtl = defaultTtl;
	}

	public Duration getDefaultWaitTime() {
		return this.defaultWaitTime;
	}

	public void setDefaultWaitTime(Duration defaultWaitTime) {
		this.defaultWaitTime = defaultWaitTime;
	}

	public Duration getRedisTimeout() {
		return this.redisTimeout;
	}

	public void setRedisTimeout(Duration redisTimeout) {
		this.redisTimeout = redisTimeout;
	}

	public Duration getDriftAllowance() {
		return this.driftAllowance;
	}

	public void setDriftAllowance(Duration driftAllowance) {
		this.driftAllowance = driftAllowance;
	}

	public @Nullable String getInstanceId() {
		return this.instanceId;
	}

	public void setInstanceId(@Nullable String instanceId) {
		this.instanceId = instanceId;
	}

	public Store getStore() {
		return this.store;
	}

	public void setStore(Store store) {
		this.store = store;
	}

	public Renewal getRenewal() {
		return this.renewal;
	}

	public Wait getWait() {
		return this.wait;
	}

	public Aspect getAspect() {
		return this.aspect;
	}

	public Health getHealth() {
		return this.health;
	}

	public Web getWeb() {
		return this.web;
	}

	public Redlock getRedlock() {
		return this.redlock;
	}

	public Redis getRedis() {
		return this.redis;
	}

	public Jdbc getJdbc() {
		return this.jdbc;
	}

	/** Lease renewal while a lock is held. */
	public static class Renewal {

		/** Whether to extend the leases of held locks every ttl / 3 while they are held. */
		private boolean enabled = true;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

	}

	/** How waiters learn that a busy lock was released. */
	public static class Wait {

		/** Wake waiters on pub/sub release notifications, or poll where pub/sub is unavailable. */
		private WaitStrategy strategy = WaitStrategy.PUBSUB;

		/** Longest a waiter sleeps before asking Redis again; the polling interval with 'poll'. */
		private Duration recheckInterval = Duration.ofSeconds(1);

		/**
		 * How long a waiter handed a released lock has to take it; a waiter that died meanwhile
		 * holds up the next one for at most this long. At least twice the re-check interval is
		 * used, so a waiter whose notification was lost still looks in time.
		 */
		private Duration claimLease = Duration.ofSeconds(2);

		/**
		 * How many times in a row a release may hand a lock to a waiter of its own process queued
		 * behind the first waiter of another process, before the first waiter has it (Redis store).
		 * 0 hands every lock in arrival order.
		 */
		private int cohortPasses = 2;

		public WaitStrategy getStrategy() {
			return this.strategy;
		}

		public void setStrategy(WaitStrategy strategy) {
			this.strategy = strategy;
		}

		public Duration getRecheckInterval() {
			return this.recheckInterval;
		}

		public void setRecheckInterval(Duration recheckInterval) {
			this.recheckInterval = recheckInterval;
		}

		public Duration getClaimLease() {
			return this.claimLease;
		}

		public void setClaimLease(Duration claimLease) {
			this.claimLease = claimLease;
		}

		public int getCohortPasses() {
			return this.cohortPasses;
		}

		public void setCohortPasses(int cohortPasses) {
			this.cohortPasses = cohortPasses;
		}

	}

	/** The @DistributedLock aspect. */
	public static class Aspect {

		/** Whether to apply @DistributedLock to Spring beans. */
		private boolean enabled = true;

		/** Order of the lock advisor; the default wraps @Transactional, so the lock outlives the commit. */
		private int order = Ordered.LOWEST_PRECEDENCE - 100;

		/**
		 * Whether a @DistributedLock that a proxy cannot apply (on a private, static or final method)
		 * stops the startup; when false, it is logged at WARN.
		 */
		private boolean strict = false;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public int getOrder() {
			return this.order;
		}

		public void setOrder(int order) {
			this.order = order;
		}

		public boolean isStrict() {
			return this.strict;
		}

		public void setStrict(boolean strict) {
			this.strict = strict;
		}

	}

	/** The HTTP answers to lock failures in Spring MVC and WebFlux applications. */
	public static class Web {

		/** Retry-After of the 503 answer when the lock store cannot be reached, in whole seconds rounded up. */
		private Duration unavailableRetryAfter = Duration.ofSeconds(1);

		public Duration getUnavailableRetryAfter() {
			return this.unavailableRetryAfter;
		}

		public void setUnavailableRetryAfter(Duration unavailableRetryAfter) {
			this.unavailableRetryAfter = unavailableRetryAfter;
		}

	}

	/** The locks health contributor. */
	public static class Health {

		/** Whether a lease lost since start turns the health DOWN; otherwise it only shows in the details. */
		private boolean downOnLostLease;

		public boolean isDownOnLostLease() {
			return this.downOnLostLease;
		}

		public void setDownOnLostLease(boolean downOnLostLease) {
			this.downOnLostLease = downOnLostLease;
		}

	}

	/** The Lettuce connections to Redis. */
	public static class Redis {

		/**
		 * Longest pause between two attempts to reconnect to a Redis that went away, so that locking and
		 * health resume within about this long once it answers again (Lettuce's own pause doubles up to
		 * 30s). With the Redis store it applies to the ClientResources that Spring Boot auto-configures, so
		 * to all its Lettuce connections, not only Locksmith's; with Redlock, to the servers' connections.
		 * ClientResources or a connection factory that the application built itself keep their own.
		 */
		private Duration maxReconnectDelay = Duration.ofSeconds(1);

		/**
		 * Whether release notifications go over sharded pub/sub on a Redis Cluster through Lettuce whose
		 * servers all have it (Redis 7, Valkey): each is published within its lock's shard instead of to
		 * every node. Switch it on in every application that locks on the cluster at once: a process on
		 * classic channels does not hear a sharded notice, and its waiters fall back to their re-check.
		 */
		private boolean shardedPubSub;

		public boolean isShardedPubSub() {
			return this.shardedPubSub;
		}

		public void setShardedPubSub(boolean shardedPubSub) {
			this.shardedPubSub = shardedPubSub;
		}

		public Duration getMaxReconnectDelay() {
			return this.maxReconnectDelay;
		}

		public void setMaxReconnectDelay(Duration maxReconnectDelay) {
			this.maxReconnectDelay = maxReconnectDelay;
		}

	}

	/** The PostgreSQL store, with {@code locksmith.store=jdbc}. */
	public static class Jdbc {

		/** Prefix of the store's tables, functions and notification channel. */
		private String tablePrefix = "locksmith_";

		/**
		 * When Locksmith creates its tables at startup: 'embedded', only in an embedded database (which
		 * Spring Boot detects as H2, HSQLDB or Derby, so never in PostgreSQL); 'always'; or 'never'. The
		 * startup fails naming the missing tables either way.
		 */
		private InitializeSchema initializeSchema = InitializeSchema.EMBEDDED;

		/** Bound on each lock call's transaction in the database (SET LOCAL statement_timeout). */
		private Duration statementTimeout = Duration.ofSeconds(2);

		public String getTablePrefix() {
			return this.tablePrefix;
		}

		public void setTablePrefix(String tablePrefix) {
			this.tablePrefix = tablePrefix;
		}

		public InitializeSchema getInitializeSchema() {
			return this.initializeSchema;
		}

		public void setInitializeSchema(InitializeSchema initializeSchema) {
			this.initializeSchema = initializeSchema;
		}

		public Duration getStatementTimeout() {
			return this.statementTimeout;
		}

		public void setStatementTimeout(Duration statementTimeout) {
			this.statementTimeout = statementTimeout;
		}

	}

	/** When the PostgreSQL store's tables are created at startup. */
	public enum InitializeSchema {

		/** Only in an embedded database. */
		EMBEDDED,

		/** Always: every statement of the schema script is safe to run again. */
		ALWAYS,

		/** Never: the tables are created by the application's own migrations. */
		NEVER

	}

	/** Redlock: one lock across several independent Redis servers, with {@code locksmith.store=redlock}. */
	public static class Redlock {

		/**
		 * URLs of the 3 or 5 independent Redis servers (not replicas of one another), such as
		 * redis://:secret@redis-a:6379; separate from spring.data.redis.
		 */
		private List<String> nodes = new ArrayList<>();

		/**
		 * Bound on each server's answer to one lock call; when unset, 5% of the lock's ttl, at least 20ms
		 * and at most a quarter of locksmith.redis-timeout.
		 */
		private @Nullable Duration nodeTimeout;

		public List<String> getNodes() {
			return this.nodes;
		}

		public void setNodes(List<String> nodes) {
			this.nodes = nodes;
		}

		public @Nullable Duration getNodeTimeout() {
			return this.nodeTimeout;
		}

		public void setNodeTimeout(@Nullable Duration nodeTimeout) {
			this.nodeTimeout = nodeTimeout;
		}

	}

	/** Where locks are kept. */
	public enum Store {

		/** The application's Redis (standalone, Sentinel or Cluster), through its RedisConnectionFactory. */
		REDIS,

		/** A majority of the independent Redis servers in locksmith.redlock.nodes. */
		REDLOCK,

		/** This JVM's memory: no mutual exclusion between processes, so for tests only. */
		IN_MEMORY,

		/** The application's PostgreSQL DataSource. */
		JDBC

	}

	/** How waiters learn that a busy lock was released. */
	public enum WaitStrategy {

		/** A release notification over Redis pub/sub wakes the waiters. */
		PUBSUB,

		/** Waiters ask Redis again every recheck interval. */
		POLL

	}

}
