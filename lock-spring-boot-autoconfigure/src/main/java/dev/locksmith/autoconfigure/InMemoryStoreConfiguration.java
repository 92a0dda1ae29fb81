package dev.locksmith.autoconfigure;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;

import dev.locksmith.core.FencedValues;
import dev.locksmith.core.LockStore;
import dev.locksmith.test.inmemory.InMemoryFencedValues;
import dev.locksmith.test.inmemory.InMemoryLockBackend;

/**
 * The in-memory store, {@code locksmith.store=in-memory}: locks within this JVM, for tests, when
 * {@code dev.locksmith:locksmith-inmemory} is on the class path (it comes with {@code locksmith-test});
 * without it, no store is set up and the lock service stops the startup saying what is missing.
 */
@Configuration(proxyBeanMethods = false)
@Conditional(LockStoreCondition.class)
@ConditionalOnClass(InMemoryLockBackend.class)
class InMemoryStoreConfiguration {

	private static final Log logger = LogFactory.getLog(InMemoryStoreConfiguration.class);

	@Bean
	@ConditionalOnMissingBean(LockStore.class)
	InMemoryLockBackend lockStore(LocksmithProperties properties) {
		logger.info("Locks are kept in this JVM's memory (locksmith.store=in-memory): for tests only");
		return new InMemoryLockBackend(properties.getWait().getClaimLease());
	}

	@Bean
	@ConditionalOnMissingBean
	FencedValues fencedValues() {
		return new InMemoryFencedValues();
	}

}
