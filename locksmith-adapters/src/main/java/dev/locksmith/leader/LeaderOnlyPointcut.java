package dev.locksmith.leader;

import java.lang.reflect.Method;
import java.util.function.Supplier;

import org.springframework.aop.support.StaticMethodMatcherPointcut;
import org.springframework.core.annotation.AnnotatedElementUtils;

/**
 * Matches {@link LeaderOnly @LeaderOnly} methods, and fails the startup on one that returns a value or
 * names a role without an election.
 */
final class LeaderOnlyPointcut extends StaticMethodMatcherPointcut {

	private final Supplier<LeaderElections> elections;

	LeaderOnlyPointcut(Supplier<LeaderElections> elections) {
		this.elections = elections;
	}

	@Override
	public boolean matches(Method method, Class<?> targetClass) {
		LeaderOnly leaderOnly = AnnotatedElementUtils.findMergedAnnotation(method, LeaderOnly.class);
		if (leaderOnly == null) {
			return false;
		}
		String name = method.getDeclaringClass().getSimpleName() + "." + method.getName() + "()";
		if (method.getReturnType() != void.class) {
			throw new IllegalStateException("@LeaderOnly method " + name
					+ " must return void: the instances that do not lead skip it and have nothing to return");
		}
		if (!this.elections.get().roles().contains(leaderOnly.role())) {
			throw new IllegalStateException("@LeaderOnly method " + name + " names role '" + leaderOnly.role()
					+ "', which has no election; add it to locksmith.leader.roles");
		}
		return true;
	}

}
