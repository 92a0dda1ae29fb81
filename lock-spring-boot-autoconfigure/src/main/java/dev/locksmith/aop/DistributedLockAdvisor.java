package dev.locksmith.aop;

import org.aopalliance.aop.Advice;
import org.springframework.aop.Pointcut;
import org.springframework.aop.support.AbstractPointcutAdvisor;
import org.springframework.aop.support.annotation.AnnotationMatchingPointcut;
import org.springframework.core.Ordered;

import dev.locksmith.annotation.DistributedLock;

/**
 * Applies the {@link DistributedLockInterceptor} to every method annotated with
 * {@link DistributedLock}, on the class or on an interface it implements. Its default order puts the
 * lock outside {@code @Transactional}: the lock is taken before the transaction begins and released
 * after it commits.
 *
 * @since 0.1.0
 */
public final class DistributedLockAdvisor extends AbstractPointcutAdvisor {

	/** Just outside the transaction advisor, whose default order is {@link Ordered#LOWEST_PRECEDENCE}. */
	public static final int DEFAULT_ORDER = Ordered.LOWEST_PRECEDENCE - 100;

	private final Pointcut pointcut = new AnnotationMatchingPointcut(null, DistributedLock.class, true);

	private final DistributedLockInterceptor interceptor;

	public DistributedLockAdvisor(DistributedLockInterceptor interceptor, int order) {
		this.interceptor = interceptor;
		setOrder(order);
	}

	@Override
	public Pointcut getPointcut() {
		return this.pointcut;
	}

	@Override
	public Advice getAdvice() {
		return this.interceptor;
	}

}
