package dev.locksmith.adapters.autoconfigure;

import net.javacrumbs.shedlock.core.LockProvider;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.context.annotation.Bean;

import dev.locksmith.adapters.shedlock.LocksmithLockProvider;
import dev.locksmith.autoconfigure.LocksmithAutoConfiguration;
import dev.locksmith.core.LockService;

/**
 * Auto-configuration of ShedLock's {@link LockProvider} on Locksmith: with ShedLock on the class path and
 * no provider of the application's own, {@code @SchedulerLock} methods lock through the
 * {@link LockService}.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = LocksmithAutoConfiguration.class)
@ConditionalOnClass(LockProvider.class)
@ConditionalOnSingleCandidate(LockService.class)
public final class LocksmithShedLockAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(LockProvider.class)
	LocksmithLockProvider locksmithLockProvider(LockService lockService) {
		return new LocksmithLockProvider(lockService);
	}

}
