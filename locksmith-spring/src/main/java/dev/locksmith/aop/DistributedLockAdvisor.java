package dev.locksmith.aop;

import java.time.Duration;
import java.util.function.Supplier;

import org.aopalliance.aop.Advice;
import org.springframework.aop.Pointcut;
import org.springframework.aop.support.AbstractPointcutAdvisor;
import org.springframework.aop.support.annotation.AnnotationMatchingPointcut;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.context.expression.BeanFactoryResolver;
import org.springframework.core.Ordered;

import dev.locksmith.annotation.DistributedLock;
import dev.locksmith.core.LockService;

/**
 * Runs every method annotated with {@link DistributedLock}, on the class or on an interface it
 * implements, under its lock. The order the auto-configuration gives it by default puts the lock outside
 * {@code @Transactional}: the lock is taken before the transaction begins and released after it commits.
 *
 * @since 0.1.0
 */
public final class DistributedLockAdvisor extends AbstractPointcutAdvisor {

	private final Pointcut pointcut = new AnnotationMatchingPointcut(null, DistributedLock.class, true);

	private final LockDefinitions definitions;

	private final DistributedLockInterceptor interceptor;

	/**
	 * Creates the advisor, at the order {@link #setOrder} gives it; {@code locksmith.aspect.order} sets it
	 * just outside the transaction advisor, whose default order is {@link Ordered#LOWEST_PRECEDENCE}.
	 * @param lockService the service that takes the locks, looked up at the first locked call
	 * @param beanFactory resolves placeholders in durations and {@code @bean} references in key expressions
	 * @param defaultTtl the lease of a lock that names none
	 * @param defaultWaitTime the wait of a lock that names none
	 */
	public DistributedLockAdvisor(Supplier<LockService> lockService, ConfigurableBeanFactory beanFactory,
			Supplier<Duration> defaultTtl, Supplier<Duration> defaultWaitTime) {
		this.definitions = new LockDefinitions(beanFactory::resolveEmbeddedValue, defaultTtl, defaultWaitTime);
		this.interceptor = new DistributedLockInterceptor(lockService, this.definitions,
				new BeanFactoryResolver(beanFactory));
	}

	@Override
	public Pointcut getPointcut() {
		return this.pointcut;
	}

	@Override
	public Advice getAdvice() {
		return this.interceptor;
	}

	/** The parsed annotations this advisor enforces, shared with the startup check. */
	LockDefinitions definitions() {
		return this.definitions;
	}

}
