package dev.locksmith.autoconfigure;

import org.springframework.beans.factory.InitializingBean;
import org.springframework.beans.factory.ObjectProvider;

import dev.locksmith.autoconfigure.LocksmithProperties.Store;
import dev.locksmith.core.LockService;

/**
 * Stops the startup when {@code locksmith.store} names a store that could not be set up, instead of
 * leaving {@code @DistributedLock} methods without a lock service, and says what the store needs.
 */
final class LockStoreValidator implements InitializingBean {

	private final Store store;

	private final ObjectProvider<LockService> lockServices;

	LockStoreValidator(Store store, ObjectProvider<LockService> lockServices) {
		this.store = store;
		this.lockServices = lockServices;
	}

	@Override
	public void afterPropertiesSet() {
		if (this.lockServices.stream().findAny().isEmpty()) {
			throw new IllegalStateException("No LockService could be set up for " + OnLockStoreCondition.PROPERTY + "="
					+ this.store.name().toLowerCase().replace('_', '-') + ": " + requirement());
		}
	}

	private String requirement() {
		return switch (this.store) {
			case REDIS -> "it needs a RedisConnectionFactory bean; add spring-boot-starter-data-redis and configure"
					+ " spring.data.redis.*";
			case REDLOCK -> "it needs Lettuce on the classpath (spring-boot-starter-data-redis) and the servers in "
					+ LocksmithRedlockAutoConfiguration.NODES_PROPERTY;
			case IN_MEMORY -> "it needs dev.locksmith:locksmith-test on the classpath, a test-scoped dependency"
					+ " (the in-memory store is for single-JVM tests only)";
		};
	}

}
