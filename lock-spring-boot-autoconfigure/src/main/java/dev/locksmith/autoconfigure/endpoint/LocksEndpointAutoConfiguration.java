package dev.locksmith.autoconfigure.endpoint;

import java.util.Set;

import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;

import dev.locksmith.actuate.LocksEndpoint;
import dev.locksmith.autoconfigure.LocksmithAutoConfiguration;
import dev.locksmith.autoconfigure.LocksmithProperties;
import dev.locksmith.core.LockAdministration;
import dev.locksmith.core.LockService;

/**
 * Auto-configures the {@code locks} Actuator endpoint, configured by {@link LocksEndpointProperties}.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = LocksmithAutoConfiguration.class)
@ConditionalOnClass({ Endpoint.class, LocksEndpoint.class })
@ConditionalOnBean({ LockService.class, LockAdministration.class })
@ConditionalOnAvailableEndpoint(LocksEndpoint.class)
@EnableConfigurationProperties({ LocksmithProperties.class, LocksEndpointProperties.class })
public final class LocksEndpointAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	LocksEndpoint locksEndpoint(LockService locks, LockAdministration administration, LocksEndpointProperties endpoint,
			ApplicationEventPublisher events) {
		Show showValues = (endpoint.getShowValues() != null) ? endpoint.getShowValues() : Show.NEVER;
		return new LocksEndpoint(locks, administration, showValues, Set.copyOf(endpoint.getRoles()),
				endpoint.getMaxWaiters(), events);
	}

}
