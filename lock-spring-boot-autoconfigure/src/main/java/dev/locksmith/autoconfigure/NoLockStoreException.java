package dev.locksmith.autoconfigure;

import java.lang.annotation.Annotation;
import java.util.Collection;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import dev.locksmith.autoconfigure.LocksmithProperties.Store;

/**
 * Stops the startup when no lock store can be built, so that no {@code @DistributedLock} method runs
 * without its lock; carries what to do about it for {@link NoLockStoreFailureAnalyzer}.
 */
final class NoLockStoreException extends IllegalStateException {

	private static final String UNGUARDED = " Without a lock store, @DistributedLock methods would run without their"
			+ " locks, so the application does not start.";

	private static final String OWN_SERVICE = "declare a LockService bean of your own";

	private final String action;

	private NoLockStoreException(String description, String action, @Nullable Throwable cause) {
		super(description, cause);
		this.action = action;
	}

	/** What the application can change so that Locksmith finds its store. */
	String action() {
		return this.action;
	}

	/** The selected store could not be set up at all: what it needs. */
	static NoLockStoreException forStore(Store store) {
		String selected = LockStoreCondition.PROPERTY + "=" + store.name().toLowerCase().replace('_', '-');
		String description = "No LockService could be set up for " + selected + ": ";
		return switch (store) {
			case REDIS -> new NoLockStoreException(description + "it needs a RedisConnectionFactory bean, and the "
					+ "application has none." + UNGUARDED, "Add spring-boot-starter-data-redis and configure "
					+ "spring.data.redis.*, select another store with " + LockStoreCondition.PROPERTY + ", or "
					+ OWN_SERVICE + ".", null);
			case REDLOCK -> new NoLockStoreException(description + "it needs Lettuce on the class path and the "
					+ "servers in " + RedlockStoreConfiguration.NODES_PROPERTY + "." + UNGUARDED,
					"Add spring-boot-starter-data-redis (it brings Lettuce) and set "
					+ RedlockStoreConfiguration.NODES_PROPERTY + ", or " + OWN_SERVICE + ".", null);
			case IN_MEMORY -> new NoLockStoreException(description + "it needs dev.locksmith:locksmith-test on the "
					+ "class path (the in-memory store is for single-JVM tests only)." + UNGUARDED,
					"Add dev.locksmith:locksmith-test as a test-scoped dependency and select the in-memory store in "
					+ "test configuration only; in production, use locksmith.store=redis or redlock.", null);
			case JDBC -> new NoLockStoreException(description + "it needs dev.locksmith:locksmith-jdbc and "
					+ "spring-boot-jdbc on the class path and a DataSource bean." + UNGUARDED,
					"Add dev.locksmith:locksmith-jdbc and spring-boot-starter-jdbc with the PostgreSQL driver and "
					+ "configure spring.datasource.*, select another store with " + LockStoreCondition.PROPERTY
					+ ", or " + OWN_SERVICE + ".", null);
		};
	}

	/** The store found several beans of {@code type} to lock on and none was chosen for locks. */
	static NoLockStoreException forUnchosenBeans(Class<?> type, Class<? extends Annotation> qualifier, String store,
			Collection<String> beanNames) {
		return new NoLockStoreException("Locksmith needs one " + type.getSimpleName() + " for its locks ("
				+ LockStoreCondition.PROPERTY + "=" + store + "), but the application has " + beanNames.size()
				+ " and none is @Primary or @" + qualifier.getSimpleName() + ": " + quoted(beanNames) + "." + UNGUARDED,
				"Mark the " + describe(type) + " that locks should use with @" + qualifier.getName()
						+ " (on its @Bean method) or with @Primary, or " + OWN_SERVICE + ".", null);
	}

	/** Several beans of {@code type} carry the store's qualifier. */
	static NoLockStoreException forSeveralChosenBeans(Class<?> type, Class<? extends Annotation> qualifier,
			String store, Collection<String> beanNames) {
		return new NoLockStoreException("Locksmith needs one " + type.getSimpleName() + " for its locks ("
				+ LockStoreCondition.PROPERTY + "=" + store + "), but " + beanNames.size() + " are marked @"
				+ qualifier.getSimpleName() + ": " + quoted(beanNames) + "." + UNGUARDED,
				"Keep @" + qualifier.getName() + " on one " + describe(type) + " only.", null);
	}

	/** The JDBC store's tables are missing and Locksmith was not asked to create them. */
	static NoLockStoreException forMissingTables(IllegalStateException ex) {
		return new NoLockStoreException("The PostgreSQL lock store cannot start: " + ex.getMessage() + "." + UNGUARDED,
				"Run dev/locksmith/jdbc/schema-postgresql.sql from locksmith-jdbc (with your table prefix), or set "
						+ "locksmith.jdbc.initialize-schema=always to let Locksmith create the tables at startup.", ex);
	}

	/** "connection factory" for RedisConnectionFactory, "data source" for DataSource. */
	private static String describe(Class<?> type) {
		String name = type.getSimpleName().replaceFirst("^Redis", "");
		return name.replaceAll("([a-z])([A-Z])", "$1 $2").toLowerCase();
	}

	/** The Redlock servers are misconfigured. */
	static NoLockStoreException forRedlockNodes(IllegalArgumentException ex) {
		String problem = String.valueOf(ex.getMessage());
		return new NoLockStoreException("The Redlock store cannot be set up: " + problem
				+ (problem.endsWith(".") ? "" : ".") + UNGUARDED,
				"Set " + RedlockStoreConfiguration.NODES_PROPERTY + " to the redis:// URLs of 3 or 5 "
						+ "independent Redis servers (not replicas of one another).", ex);
	}

	/** Annotated methods exist, and the application has no LockService for them. */
	static NoLockStoreException forAnnotatedMethods(boolean locksmithDisabled) {
		String reason = locksmithDisabled ? "locksmith.enabled=false switched Locksmith's own off"
				: "Locksmith's auto-configuration is excluded";
		return new NoLockStoreException("The application has @DistributedLock methods but no LockService to lock "
				+ "them: " + reason + ". @DistributedLock methods never run without their locks, so the application "
				+ "does not start.", "Declare a LockService bean of your own, remove locksmith.enabled=false, or set "
						+ "locksmith.aspect.enabled=false to run @DistributedLock methods without any lock.", null);
	}

	private static String quoted(Collection<String> beanNames) {
		return beanNames.stream().map((name) -> "'" + name + "'").collect(Collectors.joining(", "));
	}

}
