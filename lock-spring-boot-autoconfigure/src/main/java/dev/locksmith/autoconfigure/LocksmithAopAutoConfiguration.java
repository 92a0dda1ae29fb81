package dev.locksmith.autoconfigure;

import org.springframework.aop.Advisor;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.Environment;
import org.springframework.transaction.TransactionExecutionListener;

import dev.locksmith.aop.DistributedLockAdvisor;
import dev.locksmith.aop.DistributedLockMethodValidator;
import dev.locksmith.aop.LeaseCheckingTransactionListener;
import dev.locksmith.core.LockStore;
import dev.locksmith.core.LockService;

/**
 * Auto-configures the {@code @DistributedLock} aspect on the application's {@link LockService}: an advisor
 * that the application's auto-proxy creator applies in its order among the others, and a post-processor
 * that applies it where no auto-proxy creator does ({@code spring.aop.auto=false}), proxying only the
 * beans with annotated methods. The aspect is there whether or not a lock service
 * could be set up: a bean with {@code @DistributedLock} methods and no lock service stops the startup,
 * so that no annotated method runs without its lock.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = LocksmithAutoConfiguration.class)
@ConditionalOnClass(Advisor.class)
@ConditionalOnBooleanProperty(name = "locksmith.aspect.enabled", matchIfMissing = true)
@EnableConfigurationProperties(LocksmithProperties.class)
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
		advisor.setOrder(aspect(environment).getOrder());
		return advisor;
	}

	/** Proxies subclass their target unless {@code spring.aop.proxy-target-class=false}, as Boot's own do. */
	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	static DistributedLockAdvisingPostProcessor distributedLockAdvisingPostProcessor(
			ObjectProvider<DistributedLockAdvisor> advisor, Environment environment) {
		return new DistributedLockAdvisingPostProcessor(advisor.getObject(),
				environment.getProperty("spring.aop.proxy-target-class", Boolean.class, true));
	}

	@Bean
	@ConditionalOnMissingBean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	static DistributedLockMethodValidator distributedLockMethodValidator(
			ObjectProvider<DistributedLockAdvisor> advisor, ObjectProvider<LockStore> store,
			ListableBeanFactory beanFactory, Environment environment) {
		return new DistributedLockMethodValidator(() -> {
			requireLockService(beanFactory, environment);
			return advisor.getObject();
		}, aspect(environment).isStrict(), store::getIfUnique);
	}

	/**
	 * The aspect's settings, bound here because the advisor and the validator are infrastructure, made
	 * before the properties bean can be.
	 */
	private static LocksmithProperties.Aspect aspect(Environment environment) {
		return Binder.get(environment).bindOrCreate("locksmith.aspect", LocksmithProperties.Aspect.class);
	}

	/**
	 * Called when the first bean with {@code @DistributedLock} methods is checked: its methods need a
	 * lock service, whose own creation fails when its store cannot be set up.
	 */
	private static void requireLockService(ListableBeanFactory beanFactory, Environment environment) {
		if (beanFactory.getBeanNamesForType(LockService.class, true, false).length == 0) {
			throw NoLockStoreException
				.forAnnotatedMethods(!environment.getProperty("locksmith.enabled", Boolean.class, true));
		}
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
