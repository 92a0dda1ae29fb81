package dev.locksmith.autoconfigure;

import org.springframework.aop.framework.Advised;
import org.springframework.aop.framework.autoproxy.AbstractBeanFactoryAwareAdvisingPostProcessor;

import dev.locksmith.aop.DistributedLockAdvisor;

/**
 * Applies the {@code @DistributedLock} advisor to the beans that have annotated methods, as Spring's
 * {@code MethodValidationPostProcessor} applies method validation, so that no annotated method runs
 * without its lock where no auto-proxy creator applies the advisor ({@code spring.aop.auto=false}). Only
 * those beans are proxied; every other bean keeps the proxy the application's configuration gives it. A
 * bean that an auto-proxy creator already advised with it, in its order among the other advisors, is
 * left alone; one it proxied without it gets the lock outside its other advice.
 */
final class DistributedLockAdvisingPostProcessor extends AbstractBeanFactoryAwareAdvisingPostProcessor {

	/** The advisor, to find it among the advisors of a proxy already made. */
	private final DistributedLockAdvisor lockAdvisor;

	DistributedLockAdvisingPostProcessor(DistributedLockAdvisor advisor, boolean proxyTargetClass) {
		this.advisor = advisor;
		this.lockAdvisor = advisor;
		setBeforeExistingAdvisors(true);
		setProxyTargetClass(proxyTargetClass);
	}

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) {
		if (bean instanceof Advised advised && advised.indexOf(this.lockAdvisor) >= 0) {
			return bean;
		}
		return super.postProcessAfterInitialization(bean, beanName);
	}

}
