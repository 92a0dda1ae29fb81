package dev.locksmith.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;


/**
 * Runs the annotated method only while this process holds a distributed lock, so that one caller in
 * the whole fleet runs it for a given key at a time. The lock's key is {@code <name>:<key>}, or
 * {@code <name>} when {@link #key()} is empty; in Redis it is stored under
 * {@code <locksmith.key-prefix>{<lock key>}}.
 *
 * <pre class="code">
 * &#64;DistributedLock(key = "#accountId", ttl = "30s")
 * public void withdraw(String accountId, BigDecimal amount) { ... }
 * </pre>
 *
 * <p>Like {@code @Transactional}, it applies through a Spring proxy: a {@code private},
 * {@code static} or {@code final} method runs without its lock (a WARN at startup, or a failed
 * startup with {@code locksmith.aspect.strict=true}), and so does a call from the same object
 * ({@code this.run()}), which no check can see. Call the method through another bean, or through the
 * bean's own proxy (self-injected with {@code @Lazy}, or from an {@code ObjectProvider} of its type).
 *
 * @since 0.1.0
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface DistributedLock {

	/** Lock name; default {@code <SimpleClassName>.<methodName>}. */
	String name() default "";

	/**
	 * SpEL over the arguments ({@code #userId}, {@code #p0}, {@code #a0}, {@code #order.id}) and beans
	 * ({@code @bean}); empty locks the method as a whole. A collection or array result locks every
	 * element, all or nothing.
	 */
	String key() default "";

	/** Lease: {@code 500ms}, {@code 30s}, {@code PT1M} or a {@code ${placeholder}}; empty uses {@code locksmith.default-ttl}. */
	String ttl() default "";

	/**
	 * How long to wait while the lock is busy, in the formats of {@link #ttl()}; empty uses
	 * {@code locksmith.default-wait-time}, or tries once with {@code onBusy = SKIP}.
	 */
	String waitTime() default "";

	/**
	 * How long after the grant the lock stays taken even when the method returns sooner, in the formats
	 * of {@link #ttl()}; at most the {@code ttl}. Keeps a short scheduled job from running again on an
	 * instance whose clock or schedule is a little behind. Empty or {@code 0s} releases at once.
	 */
	String holdAtLeast() default "";

	/** What to do when the lock stays busy for the whole wait. */
	OnBusy onBusy() default OnBusy.THROW;

	/**
	 * Name of a method of the same bean to call instead when the lock stays busy, as Resilience4j's
	 * {@code fallbackMethod}: it takes the same parameters, optionally followed by a
	 * {@code LockBusyException}, and returns the same type ({@code CompletionStage}, {@code Mono} and
	 * {@code Flux} included). Not with {@code onBusy = SKIP}. Checked at startup.
	 * @since 0.1.0
	 */
	String fallbackMethod() default "";

	/** Whether to keep extending the lease while the method runs. */
	boolean renew() default true;

	/** {@code WRITE}: exclusive; {@code READ}: shared with the other readers of the same key. */
	LockMode mode() default LockMode.WRITE;

	/** How many callers hold the lock at once, each with its own lease; does not combine with {@code READ}. */
	int permits() default 1;

}
