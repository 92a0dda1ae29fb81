package dev.locksmith.leader;

import java.util.function.Supplier;

import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.Advisor;
import org.springframework.aop.support.DefaultPointcutAdvisor;
import org.springframework.core.annotation.AnnotatedElementUtils;

/**
 * Runs a {@link LeaderOnly @LeaderOnly} method on the leader of its role and skips it elsewhere.
 *
 * @since 0.1.0
 */
public final class LeaderOnlyInterceptor implements MethodInterceptor {

	private static final Log logger = LogFactory.getLog(LeaderOnlyInterceptor.class);

	private final Supplier<LeaderElections> elections;

	private LeaderOnlyInterceptor(Supplier<LeaderElections> elections) {
		this.elections = elections;
	}

	/**
	 * The advisor that applies this interceptor to {@code @LeaderOnly} methods.
	 * @param elections the elections, looked up only when a {@code @LeaderOnly} method is first met
	 */
	public static Advisor advisor(Supplier<LeaderElections> elections) {
		return new DefaultPointcutAdvisor(new LeaderOnlyPointcut(elections),
				new LeaderOnlyInterceptor(elections));
	}

	@Override
	public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
		LeaderOnly leaderOnly = AnnotatedElementUtils.findMergedAnnotation(invocation.getMethod(), LeaderOnly.class);
		if (leaderOnly == null || this.elections.get().election(leaderOnly.role()).isLeader()) {
			return invocation.proceed();
		}
		if (logger.isDebugEnabled()) {
			logger.debug("Skipped " + invocation.getMethod().getName() + "(): this instance does not lead role '"
					+ leaderOnly.role() + "'");
		}
		return null;
	}

}
