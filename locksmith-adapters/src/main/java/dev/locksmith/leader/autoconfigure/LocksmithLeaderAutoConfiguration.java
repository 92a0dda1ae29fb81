package dev.locksmith.leader.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.springframework.aop.Advisor;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Role;

import dev.locksmith.autoconfigure.LocksmithAutoConfiguration;
import dev.locksmith.core.LockService;
import dev.locksmith.leader.LeaderElection;
import dev.locksmith.leader.LeaderElections;
import dev.locksmith.leader.LeaderOnlyInterceptor;

/**
 * Auto-configuration of leader elections: one for each role of {@code locksmith.leader.roles} and each
 * {@link LeaderElection} bean, and the advice of {@code @LeaderOnly} methods.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = LocksmithAutoConfiguration.class)
@ConditionalOnSingleCandidate(LockService.class)
@EnableConfigurationProperties(LeaderProperties.class)
public final class LocksmithLeaderAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	LeaderElections leaderElections(LockService lockService, LeaderProperties properties,
			ObjectProvider<LeaderElection> declared, ApplicationEventPublisher events) {
		List<LeaderElection> elections = new ArrayList<>(declared.orderedStream().toList());
		for (String role : properties.getRoles()) {
			elections.add(election(role, lockService, properties.getTtl(), events));
		}
		return new LeaderElections(elections);
	}

	/** The election of a configured role; a role or ttl it rejects is reported as Boot reports an invalid property. */
	private static LeaderElection election(String role, LockService lockService, Duration ttl,
			ApplicationEventPublisher events) {
		try {
			return new LeaderElection(role, lockService, ttl, events);
		}
		catch (IllegalArgumentException ex) {
			throw role.isBlank() ? new InvalidConfigurationPropertyValueException("locksmith.leader.roles", role,
					ex.getMessage()) : new InvalidConfigurationPropertyValueException("locksmith.leader.ttl", ttl,
							ex.getMessage());
		}
	}

	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	static Advisor leaderOnlyAdvisor(ObjectProvider<LeaderElections> elections) {
		return LeaderOnlyInterceptor.advisor(elections::getObject);
	}

}
