package dev.locksmith.benchmarks.lock;

import java.util.Arrays;
import java.util.List;

import org.springframework.integration.redis.util.RedisLockRegistry.RedisLockType;

/**
 * The libraries compared, in report order, each on its {@link Store}; the first, the textbook lock, is the
 * baseline that the Redis report's ratios refer to.
 */
public enum Library {

	/** {@code SET NX PX} and a compare-and-delete script, polling every millisecond while busy. */
	TEXTBOOK("textbook SET NX + Lua", "io.lettuce:lettuce-core", Store.REDIS),

	/** Redisson's {@code RLock}. */
	REDISSON("Redisson RLock", "org.redisson:redisson", Store.REDIS),

	/** Spring Integration's {@code RedisLockRegistry}, spin lock. */
	SPRING_INTEGRATION_SPIN("Spring Integration (spin)", "org.springframework.integration:spring-integration-redis",
			Store.REDIS),

	/** Spring Integration's {@code RedisLockRegistry}, pub/sub lock. */
	SPRING_INTEGRATION_PUB_SUB("Spring Integration (pub/sub)", "org.springframework.integration:spring-integration-redis",
			Store.REDIS),

	/** ShedLock's Redis provider, polling every millisecond while busy. */
	SHEDLOCK("ShedLock", "net.javacrumbs.shedlock:shedlock-provider-redis-spring", Store.REDIS),

	/** Locksmith's {@code LockService}. */
	LOCKSMITH("Locksmith LockService", "dev.locksmith:lock-spring-boot-autoconfigure", Store.REDIS),

	/** Locksmith's {@code @DistributedLock}. */
	LOCKSMITH_ANNOTATED("Locksmith @DistributedLock", "dev.locksmith:lock-spring-boot-autoconfigure", Store.REDIS),

	/** ShedLock's {@code JdbcTemplateLockProvider} on the database's time, polling every millisecond while busy. */
	SHEDLOCK_JDBC("ShedLock JdbcTemplateLockProvider", "net.javacrumbs.shedlock:shedlock-provider-jdbc-template",
			Store.POSTGRESQL),

	/** Spring Integration's {@code JdbcLockRegistry}, with its default settings. */
	SPRING_INTEGRATION_JDBC("Spring Integration JdbcLockRegistry",
			"org.springframework.integration:spring-integration-jdbc", Store.POSTGRESQL),

	/** Locksmith's {@code LockService} with {@code locksmith.store=jdbc}. */
	LOCKSMITH_JDBC("Locksmith LockService (jdbc)", "dev.locksmith:locksmith-jdbc", Store.POSTGRESQL);

	private final String label;

	private final String artifact;

	private final Store store;

	Library(String label, String artifact, Store store) {
		this.label = label;
		this.artifact = artifact;
		this.store = store;
	}

	/** The libraries that keep their locks in {@code store}, in report order. */
	public static List<Library> on(Store store) {
		return Arrays.stream(values()).filter((library) -> library.store == store).toList();
	}

	/** The name shown in the report. */
	public String label() {
		return this.label;
	}

	/** The Maven artifact, {@code groupId:artifactId}, that the library comes from. */
	public String artifact() {
		return this.artifact;
	}

	/** Where this library keeps its locks. */
	public Store store() {
		return this.store;
	}

	/** Whether this is one of Locksmith's own entry points. */
	public boolean isLocksmith() {
		return this == LOCKSMITH || this == LOCKSMITH_ANNOTATED || this == LOCKSMITH_JDBC;
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

	/** Starts this library's clients on the environment's Redis or PostgreSQL, as its {@link #store()} says. */
	public BenchLock open(BenchEnvironment environment) {
		int port = environment.redisPort();
		return switch (this) {
			case TEXTBOOK -> new TextbookLock(port);
			case REDISSON -> new RedissonLock(port);
			case SPRING_INTEGRATION_SPIN -> SpringIntegrationLock.onRedis(port, RedisLockType.SPIN_LOCK);
			case SPRING_INTEGRATION_PUB_SUB -> SpringIntegrationLock.onRedis(port, RedisLockType.PUB_SUB_LOCK);
			case SHEDLOCK -> ShedLockLock.onRedis(port);
			case LOCKSMITH -> new LocksmithLock(environment.locksmithContext());
			case LOCKSMITH_ANNOTATED -> new LocksmithAnnotatedLock(environment.locksmithContext());
			case SHEDLOCK_JDBC -> ShedLockLock.onPostgres(environment.newDataSource());
			case SPRING_INTEGRATION_JDBC -> SpringIntegrationLock.onPostgres(environment.newDataSource());
			case LOCKSMITH_JDBC -> new LocksmithLock(environment.locksmithJdbcContext());
		};
	}

	/** Where a library keeps its locks. */
	public enum Store {

		/** One Redis server. */
		REDIS,

		/** One PostgreSQL server. */
		POSTGRESQL

	}

}
