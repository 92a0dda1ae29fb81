package dev.locksmith.aop;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.function.Supplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.util.ReflectionUtils;
import org.springframework.util.function.SingletonSupplier;

import dev.locksmith.annotation.DistributedLock;
import dev.locksmith.core.LockStore;

/**
 * Checks every {@code @DistributedLock} of a bean when the bean is created, so a bad key expression,
 * duration or option stops the application at startup, and so does a read lock or permits that the
 * store cannot grant; warns about annotations that a proxy can never apply (private, static or final
 * methods), or stops the startup for them too when strict. Methods the compiler made are not the user's and are
 * skipped: Kotlin's static {@code $suspendImpl} body of an open {@code suspend fun} carries its annotations, while
 * the proxy intercepts the {@code suspend fun} itself.
 *
 * @since 0.1.0
 */
public final class DistributedLockMethodValidator implements BeanPostProcessor {

	private static final Log logger = LogFactory.getLog(DistributedLockMethodValidator.class);

	private final SingletonSupplier<DistributedLockAdvisor> advisor;

	private final boolean strict;

	private final SingletonSupplier<ShareSupportCheck> shares;

	/**
	 * Checks the annotations that the advisor enforces, parsed once for both, and warns about those a
	 * proxy cannot apply.
	 * @param advisor the advisor, looked up when the first annotated bean is checked
	 */
	public DistributedLockMethodValidator(Supplier<DistributedLockAdvisor> advisor) {
		this(advisor, false);
	}

	/**
	 * Checks the annotations that the advisor enforces, parsed once for both.
	 * @param advisor the advisor, looked up when the first annotated bean is checked
	 * @param strict whether an annotation that a proxy cannot apply stops the startup instead of a WARN
	 * @since 0.1.0
	 */
	public DistributedLockMethodValidator(Supplier<DistributedLockAdvisor> advisor, boolean strict) {
		this(advisor, strict, () -> null);
	}

	/**
	 * Checks the annotations that the advisor enforces, parsed once for both, and the shares they ask
	 * of the store.
	 * @param advisor the advisor, looked up when the first annotated bean is checked
	 * @param strict whether an annotation that a proxy cannot apply stops the startup instead of a WARN
	 * @param store the store that keeps the locks, looked up after the advisor; {@code null} when unknown
	 * (an application's own lock service), which then refuses the shares it cannot grant on the first call
	 * @since 0.1.0
	 */
	public DistributedLockMethodValidator(Supplier<DistributedLockAdvisor> advisor, boolean strict,
			Supplier<@Nullable LockStore> store) {
		this.advisor = SingletonSupplier.of(advisor);
		this.strict = strict;
		this.shares = SingletonSupplier.of(() -> new ShareSupportCheck(store.get()));
	}

	@Override
	public Object postProcessBeforeInitialization(Object bean, String beanName) {
		Class<?> type = AopUtils.getTargetClass(bean);
		if (AnnotationUtils.isCandidateClass(type, DistributedLock.class)) {
			ReflectionUtils.doWithMethods(type, (method) -> check(method, type),
					(method) -> !method.isSynthetic()
							&& AnnotatedElementUtils.hasAnnotation(method, DistributedLock.class));
		}
		return bean;
	}

	private void check(Method method, Class<?> type) {
		int modifiers = method.getModifiers();
		String unreachable = Modifier.isPrivate(modifiers) ? "private" : Modifier.isStatic(modifiers) ? "static"
				: Modifier.isFinal(modifiers) ? "final" : null;
		if (unreachable != null) {
			String declaration = "@DistributedLock on " + LockDefinitions.describe(method, type);
			String problem = "has no effect: a proxy cannot intercept a " + unreachable
					+ " method, so it would run without its lock";
			if (this.strict) {
				throw new LockDeclarationException(declaration, problem + " (locksmith.aspect.strict=true)", null);
			}
			logger.warn(declaration + " " + problem);
			return;
		}
		LockDefinition definition = this.advisor.obtain().definitions().find(method, type);
		if (definition != null) {
			this.shares.obtain().check("@DistributedLock on " + definition.method(), definition);
		}
	}

}
