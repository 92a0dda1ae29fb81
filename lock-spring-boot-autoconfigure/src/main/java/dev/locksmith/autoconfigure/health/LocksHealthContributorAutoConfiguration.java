package dev.locksmith.autoconfigure.health;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;

import dev.locksmith.actuate.LocksHealthIndicator;
import dev.locksmith.actuate.LostLeaseTracker;
import dev.locksmith.autoconfigure.LocksmithAutoConfiguration;
import dev.locksmith.autoconfigure.LocksmithProperties;
import dev.locksmith.core.LockAdministration;
import dev.locksmith.core.LockService;

/**
 * Auto-configures the {@code locks} health contributor; on Redlock it also shows the servers' clock
 * offsets, checked against the drift allowed for {@code locksmith.default-ttl}.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = LocksmithAutoConfiguration.class)
@ConditionalOnClass({ HealthIndicator.class, LocksHealthIndicator.class })
@ConditionalOnBean({ LockService.class, LockAdministration.class })
@ConditionalOnEnabledHealthIndicator("locks")
@EnableConfigurationProperties(LocksmithProperties.class)
public final class LocksHealthContributorAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	LostLeaseTracker lostLeaseTracker() {
		return new LostLeaseTracker();
	}

	@Bean
	@ConditionalOnMissingBean(name = { "locksHealthIndicator", "locksHealthContributor" })
	LocksHealthIndicator locksHealthIndicator(LockService locks, LockAdministration administration,
			LostLeaseTracker lostLeases, LocksmithProperties properties) {
		return new LocksHealthIndicator(locks, administration, lostLeases, properties.getHealth().isDownOnLostLease());
	}

}
