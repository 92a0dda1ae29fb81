package dev.locksmith.aop;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import org.springframework.aot.hint.ExecutableMode;
import org.springframework.aot.hint.ReflectionHints;
import org.springframework.beans.factory.aot.BeanRegistrationAotContribution;
import org.springframework.beans.factory.aot.BeanRegistrationAotProcessor;
import org.springframework.beans.factory.support.RegisteredBean;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

import dev.locksmith.annotation.DistributedLock;

/**
 * Registers, for each bean with {@code @DistributedLock} methods, what the aspect reaches by reflection in a
 * native image: the classes whose methods {@link DistributedLockMethodValidator} checks, and the
 * {@code fallbackMethod}s that {@link FallbackMethods} finds and invokes.
 */
class DistributedLockBeanRegistrationAotProcessor implements BeanRegistrationAotProcessor {

	@Override
	public @Nullable BeanRegistrationAotContribution processAheadOfTime(RegisteredBean bean) {
		Class<?> type = ClassUtils.getUserClass(bean.getBeanClass());
		if (!AnnotationUtils.isCandidateClass(type, DistributedLock.class)) {
			return null;
		}
		Set<Class<?>> declaringTypes = new LinkedHashSet<>();
		List<Method> fallbacks = new ArrayList<>();
		ReflectionUtils.doWithMethods(type, (method) -> {
			declaringTypes.add(method.getDeclaringClass());
			DistributedLock annotation = AnnotatedElementUtils.findMergedAnnotation(method, DistributedLock.class);
			String fallback = (annotation != null) ? annotation.fallbackMethod() : "";
			if (!fallback.isBlank()) {
				ReflectionUtils.doWithMethods(type, fallbacks::add, (candidate) -> candidate.getName().equals(fallback));
			}
		}, (method) -> AnnotatedElementUtils.hasAnnotation(method, DistributedLock.class));
		if (declaringTypes.isEmpty()) {
			return null;
		}
		declaringTypes.add(type);
		return (generationContext, code) -> {
			ReflectionHints reflection = generationContext.getRuntimeHints().reflection();
			declaringTypes.forEach(reflection::registerType);
			fallbacks.forEach((fallback) -> reflection.registerMethod(fallback, ExecutableMode.INVOKE));
		};
	}

}
