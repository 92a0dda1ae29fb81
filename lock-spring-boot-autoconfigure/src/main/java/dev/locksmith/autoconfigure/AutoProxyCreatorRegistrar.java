package dev.locksmith.autoconfigure;

import org.springframework.aop.config.AopConfigUtils;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotationMetadata;

/**
 * Registers an auto-proxy creator unless the application has one, as {@code @EnableTransactionManagement}
 * does: without it ({@code spring.aop.auto=false}) annotated methods would run without their lock. Proxies
 * subclass their target unless {@code spring.aop.proxy-target-class=false}, as with Spring Boot's own.
 */
final class AutoProxyCreatorRegistrar implements ImportBeanDefinitionRegistrar {

	private final Environment environment;

	AutoProxyCreatorRegistrar(Environment environment) {
		this.environment = environment;
	}

	@Override
	public void registerBeanDefinitions(AnnotationMetadata metadata, BeanDefinitionRegistry registry) {
		AopConfigUtils.registerAutoProxyCreatorIfNecessary(registry);
		if (this.environment.getProperty("spring.aop.proxy-target-class", Boolean.class, true)) {
			AopConfigUtils.forceAutoProxyCreatorToUseClassProxying(registry);
		}
	}

}
