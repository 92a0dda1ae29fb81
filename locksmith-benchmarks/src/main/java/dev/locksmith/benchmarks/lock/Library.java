package dev.locksmith.benchmarks.lock;

import org.springframework.integration.redis.util.RedisLockRegistry.RedisLockType;

/** The libraries compared, in report order; the first is the baseline that ratios refer to. */
public enum Library {

	/** {@code SET NX PX} and a compare-and-delete script, polling every millisecond while busy. */
	TEXTBOOK("textbook SET NX + Lua", "io.lettuce:lettuce-core"),

	/** Redisson's {@code RLock}. */
	REDISSON("Redisson RLock", "org.redisson:redisson"),

	/** Spring Integration's {@code RedisLockRegistry}, spin lock. */
	SPRING_INTEGRATION_SPIN("Spring Integration (spin)", "org.springframework.integration:spring-integration-redis"),

	/** Spring Integration's {@code RedisLockRegistry}, pub/sub lock. */
	SPRING_INTEGRATION_PUB_SUB("Spring Integration (pub/sub)", "org.springframework.integration:spring-integration-redis"),

	/** ShedLock's Redis provider, polling every millisecond while busy. */
	SHEDLOCK("ShedLock", "net.javacrumbs.shedlock:shedlock-provider-redis-spring"),

	/** Locksmith's {@code LockService}. */
	LOCKSMITH("Locksmith LockService", "dev.locksmith:lock-spring-boot-autoconfigure"),

	/** Locksmith's {@code @DistributedLock}. */
	LOCKSMITH_ANNOTATED("Locksmith @DistributedLock", "dev.locksmith:lock-spring-boot-autoconfigure");

	private final String label;

	private final String artifact;

	Library(String label, String artifact) {
		this.label = label;
		this.artifact = artifact;
	}

	/** The name shown in the report. */
	public String label() {
		return this.label;
	}

	/** The Maven artifact, {@code groupId:artifactId}, that the library comes from. */
	public String artifact() {
		return this.artifact;
	}

	/** Whether this is one of Locksmith's own entry points. */
	public boolean isLocksmith() {
		return this == LOCKSMITH || this == LOCKSMITH_ANNOTATED;
	}

	/** Whether this library has read/write locks and permits that the shared-lock scenario measures. */
	public boolean hasSharedLocks() {
		return this == LOCKSMITH || this == REDISSON;
	}

	/** Starts this library's read/write locks and permits on the environment's Redis; see {@link #hasSharedLocks()}. */
	public SharedLock openShared(BenchEnvironment environment) {
		return switch (this) {
			case REDISSON -> new RedissonSharedLock(environment.redisPort());
			case LOCKSMITH -> new LocksmithSharedLock(environment.locksmithContext());
			default -> throw new IllegalArgumentException(this.label + " has no shared locks in the benchmarks");
		};
	}

	/** Starts this library's clients on the environment's Redis. */
	public BenchLock open(BenchEnvironment environment) {
		int port = environment.redisPort();
		return switch (this) {
			case TEXTBOOK -> new TextbookLock(port);
			case REDISSON -> new RedissonLock(port);
			case SPRING_INTEGRATION_SPIN -> new SpringIntegrationLock(port, RedisLockType.SPIN_LOCK);
			case SPRING_INTEGRATION_PUB_SUB -> new SpringIntegrationLock(port, RedisLockType.PUB_SUB_LOCK);
			case SHEDLOCK -> new ShedLockLock(port);
			case LOCKSMITH -> new LocksmithLock(environment.locksmithContext());
			case LOCKSMITH_ANNOTATED -> new LocksmithAnnotatedLock(environment.locksmithContext());
		};
	}

}
