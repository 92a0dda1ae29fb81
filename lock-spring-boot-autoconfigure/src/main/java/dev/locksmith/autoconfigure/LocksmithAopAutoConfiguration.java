package dev.locksmith.autoconfigure;

import org.springframework.aop.Advisor;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.Environment;
import org.springframework.transaction.TransactionExecutionListener;

import dev.locksmith.aop.DistributedLockAdvisor;
import dev.locksmith.aop.DistributedLockMethodValidator;
import dev.locksmith.aop.LeaseCheckingTransactionListener;
import dev.locksmith.core.LockService;

/**
 * Auto-configures the {@code @DistributedLock} aspect on the application's {@link LockService}, with an
 * auto-proxy creator when the application has none.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = LocksmithAutoConfiguration.class)
@ConditionalOnClass(Advisor.class)
@ConditionalOnBean(LockService.class)
@ConditionalOnBooleanProperty(name = "locksmith.aspect.enabled", matchIfMissing = true)
@EnableConfigurationProperties(LocksmithProperties.class)
@Import(AutoProxyCreatorRegistrar.class)
@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
public final class LocksmithAopAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	static DistributedLockAdvisor distributedLockAdvisor(ObjectProvider<LockService> lockService,
			ObjectProvider<LocksmithProperties> properties, ConfigurableBeanFactory beanFactory,
			Environment environment) {
		DistributedLockAdvisor advisor = new DistributedLockAdvisor(lockService::getObject, beanFactory,
				() -> properties.getObject().getDefaultTtl(), () -> properties.getObject().getDefaultWaitTime());
		advisor.setOrder(
				environment.getProperty("locksmith.aspect.order", Integer.class, DistributedLockAdvisor.DEFAULT_ORDER));
		return advisor;
	}

	@Bean
	@ConditionalOnMissingBean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	static DistributedLockMethodValidator distributedLockMethodValidator(
			ObjectProvider<DistributedLockAdvisor> advisor) {
		return new DistributedLockMethodValidator(advisor::getObject);
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(TransactionExecutionListener.class)
	static class TransactionConfiguration {

		@Bean
		@ConditionalOnMissingBean
		LeaseCheckingTransactionListener leaseCheckingTransactionListener() {
			return new LeaseCheckingTransactionListener();
		}

	}

}
