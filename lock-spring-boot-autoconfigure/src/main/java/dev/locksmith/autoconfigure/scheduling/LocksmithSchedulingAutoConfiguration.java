package dev.locksmith.autoconfigure.scheduling;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.task.SimpleAsyncTaskSchedulerCustomizer;
import org.springframework.boot.task.ThreadPoolTaskSchedulerCustomizer;
import org.springframework.context.annotation.Bean;

import dev.locksmith.autoconfigure.LocksmithAutoConfiguration;
import dev.locksmith.core.LockService;

/**
 * Keeps a lock store outage out of Spring Boot's task scheduler's ERROR log: the scheduler that Boot
 * builds logs a scheduled job that could not take its lock at DEBUG, since Locksmith already warned once
 * per lock and outage, and every other error at ERROR as before. A scheduler that the application
 * customizes itself (with a customizer of its own, which may set its own error handler) or builds itself
 * is left alone: Boot applies customizers in no set order and the scheduler does not tell which handler
 * it has, so only this way does Locksmith never replace one of the application's.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = LocksmithAutoConfiguration.class)
@ConditionalOnBean(LockService.class)
public final class LocksmithSchedulingAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	ThreadPoolTaskSchedulerCustomizer locksmithThreadPoolTaskSchedulerCustomizer() {
		return (scheduler) -> scheduler.setErrorHandler(new LockFailureErrorHandler());
	}

	@Bean
	@ConditionalOnMissingBean
	SimpleAsyncTaskSchedulerCustomizer locksmithSimpleAsyncTaskSchedulerCustomizer() {
		return (scheduler) -> scheduler.setErrorHandler(new LockFailureErrorHandler());
	}

}
