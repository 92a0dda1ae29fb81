package dev.locksmith.test.autoconfigure;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

import dev.locksmith.autoconfigure.ConditionalOnLockStore;
import dev.locksmith.autoconfigure.LocksmithAutoConfiguration;
import dev.locksmith.autoconfigure.LocksmithProperties;
import dev.locksmith.core.FencedValues;
import dev.locksmith.core.LockAdministration;
import dev.locksmith.core.LockBackend;
import dev.locksmith.core.ReleaseNotifications;
import dev.locksmith.test.inmemory.InMemoryFencedValues;
import dev.locksmith.test.inmemory.InMemoryLockBackend;

/**
 * Auto-configures the in-memory lock store and {@link FencedValues} when {@code locksmith.store=in-memory};
 * Locksmith's own auto-configuration then builds the {@code LockService} on it. Locks are shared
 * within this JVM only: for tests, never for production.
 *
 * @since 0.1.0
 */
@AutoConfiguration(before = LocksmithAutoConfiguration.class)
@ConditionalOnBooleanProperty(name = "locksmith.enabled", matchIfMissing = true)
@ConditionalOnLockStore(LocksmithProperties.Store.IN_MEMORY)
@EnableConfigurationProperties(LocksmithProperties.class)
public final class InMemoryLockStoreAutoConfiguration {

	private static final Log logger = LogFactory.getLog(InMemoryLockStoreAutoConfiguration.class);

	@Bean
	@ConditionalOnMissingBean(LockBackend.class)
	InMemoryLockBackend lockBackend(LocksmithProperties properties) {
		logger.info("Locks are kept in this JVM's memory (locksmith.store=in-memory): for tests only");
		return new InMemoryLockBackend(properties.getWait().getClaimLease());
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBean(InMemoryLockBackend.class)
	ReleaseNotifications inMemoryReleaseNotifications(InMemoryLockBackend backend) {
		return backend.releaseNotifications();
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBean(InMemoryLockBackend.class)
	LockAdministration lockAdministration(InMemoryLockBackend backend) {
		return backend.administration();
	}

	@Bean
	@ConditionalOnMissingBean
	FencedValues fencedValues() {
		return new InMemoryFencedValues();
	}

}
