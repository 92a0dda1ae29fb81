package dev.locksmith.adapters.autoconfigure;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.context.annotation.Bean;
import org.springframework.integration.support.locks.LockRegistry;

import dev.locksmith.adapters.integration.LocksmithLockRegistry;
import dev.locksmith.autoconfigure.LocksmithAutoConfiguration;
import dev.locksmith.core.LockService;

/**
 * Auto-configuration of Spring Integration's {@link LockRegistry} on Locksmith: with Spring Integration on
 * the class path and no registry of the application's own, its locks come from the {@link LockService}.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = LocksmithAutoConfiguration.class)
@ConditionalOnClass(LockRegistry.class)
@ConditionalOnSingleCandidate(LockService.class)
public final class LocksmithLockRegistryAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(LockRegistry.class)
	LocksmithLockRegistry locksmithLockRegistry(LockService lockService) {
		return new LocksmithLockRegistry(lockService);
	}

}
