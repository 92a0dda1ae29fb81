package dev.locksmith.autoconfigure;

import java.util.Set;

import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.locksmith.actuate.LockMetricsListener;
import dev.locksmith.actuate.LocksEndpoint;
import dev.locksmith.actuate.LocksHealthIndicator;
import dev.locksmith.actuate.LostLeaseTracker;
import dev.locksmith.actuate.MeteredLockService;
import dev.locksmith.actuate.ReleasingLocksEndpoint;
import dev.locksmith.core.LockAdministration;
import dev.locksmith.core.LockService;

/**
 * Auto-configures the {@code locks} endpoint, the {@code locks} health contributor and Micrometer
 * metrics, each only when its part of Spring Boot Actuator or Micrometer is present.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = LocksmithAutoConfiguration.class,
		afterName = "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration")
@ConditionalOnBean({ LockService.class, LockAdministration.class })
public final class LocksmithActuatorAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	LostLeaseTracker lostLeaseTracker() {
		return new LostLeaseTracker();
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(Endpoint.class)
	static class EndpointConfiguration {

		@Bean
		@ConditionalOnMissingBean
		@ConditionalOnAvailableEndpoint(LocksEndpoint.class)
		LocksEndpoint locksEndpoint(LockService locks, LockAdministration administration,
				LocksmithProperties properties) {
			LocksmithProperties.Actuator actuator = properties.getActuator();
			Set<String> roles = Set.copyOf(actuator.getRoles());
			Show showKeys = Show.valueOf(actuator.getShowKeys().name());
			return actuator.isReleaseEnabled() ? new ReleasingLocksEndpoint(locks, administration, showKeys, roles)
					: new LocksEndpoint(locks, administration, showKeys, roles);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(HealthIndicator.class)
	@ConditionalOnEnabledHealthIndicator("locks")
	static class HealthConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "locksHealthIndicator")
		LocksHealthIndicator locksHealthIndicator(LockService locks, LockAdministration administration,
				LostLeaseTracker lostLeases, LocksmithProperties properties) {
			return new LocksHealthIndicator(locks, administration, lostLeases,
					properties.getHealth().isDownOnLostLease());
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(MeterRegistry.class)
	static class MetricsConfiguration {

		@Bean
		@ConditionalOnBean(MeterRegistry.class)
		LockMetricsListener lockMetricsListener(MeterRegistry registry) {
			return new LockMetricsListener(registry);
		}

		@Bean
		static BeanPostProcessor meteredLockServicePostProcessor(ObjectProvider<MeterRegistry> registry) {
			return new BeanPostProcessor() {

				@Override
				public Object postProcessAfterInitialization(Object bean, String beanName) {
					MeterRegistry meters = (bean instanceof LockService) ? registry.getIfUnique() : null;
					return (meters != null) ? new MeteredLockService((LockService) bean, meters) : bean;
				}

			};
		}

	}

}
