package dev.locksmith.leader.autoconfigure;

import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

import dev.locksmith.core.LockAdministration;
import dev.locksmith.leader.LeaderElections;
import dev.locksmith.leader.actuate.LeadershipEndpoint;

/**
 * Auto-configures the {@code leadership} Actuator endpoint when Actuator is on the class path and the
 * application has leader elections.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = LocksmithLeaderAutoConfiguration.class)
@ConditionalOnClass(Endpoint.class)
@ConditionalOnBean({ LeaderElections.class, LockAdministration.class })
@ConditionalOnAvailableEndpoint(LeadershipEndpoint.class)
public final class LeadershipEndpointAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	LeadershipEndpoint leadershipEndpoint(LeaderElections elections, LockAdministration administration) {
		return new LeadershipEndpoint(elections, administration);
	}

}
