package dev.locksmith.test.autoconfigure;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.locksmith.autoconfigure.LocksmithProperties;
import dev.locksmith.core.FencedValues;
import dev.locksmith.core.LockAdministration;
import dev.locksmith.core.LockBackend;
import dev.locksmith.core.ReleaseNotifications;
import dev.locksmith.test.inmemory.InMemoryFencedValues;
import dev.locksmith.test.inmemory.InMemoryLockBackend;

/**
 * The in-memory lock store's beans, which Locksmith's auto-configuration imports when
 * {@code locksmith.store=in-memory} and builds the {@code LockService} on. Locks are shared within this JVM
 * only: for tests, never for production.
 */
@Configuration(proxyBeanMethods = false)
class InMemoryLockStoreConfiguration {

	private static final Log logger = LogFactory.getLog(InMemoryLockStoreConfiguration.class);

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
