package dev.locksmith.adapters.readme;

// tag::leader-only-method[]
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

import dev.locksmith.leader.LeaderOnly;

@Component
class Cleanup {

	@Scheduled(fixedDelay = 60_000)
	@LeaderOnly(role = "cleanup")   // runs on the leader of "cleanup"; skipped on every other instance
	public void purgeExpiredSessions() {
	}

}
// end::leader-only-method[]
