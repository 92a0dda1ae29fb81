package dev.locksmith.adapters.readme;

// tag::leader-election-bean[]
import java.time.Duration;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.locksmith.core.LockService;
import dev.locksmith.leader.LeaderElection;

@Configuration(proxyBeanMethods = false)
class ReportsLeadership {

	@Bean
	LeaderElection reportsElection(LockService lockService, ApplicationEventPublisher events) {
		return new LeaderElection("reports", lockService, Duration.ofMinutes(1), events);   // a lease of its own
	}

}
// end::leader-election-bean[]
