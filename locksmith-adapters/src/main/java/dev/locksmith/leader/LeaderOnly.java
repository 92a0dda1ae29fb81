package dev.locksmith.leader;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs the annotated method only on the current leader of {@link #role()}, and skips it on every
 * other instance; for example on a {@code @Scheduled} method. The method must return {@code void}, and
 * the role must have an election: both are checked at startup.
 *
 * @since 0.1.0
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface LeaderOnly {

	/** The role whose leader runs the method, one of {@code locksmith.leader.roles}. */
	String role();

}
