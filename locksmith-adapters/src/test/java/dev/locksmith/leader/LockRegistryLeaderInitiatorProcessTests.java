package dev.locksmith.leader;

import java.time.Duration;
import java.util.Set;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.integration.support.leader.LockRegistryLeaderInitiator;


import static org.assertj.core.api.Assertions.assertThat;

/**
 * Spring Integration's {@link LockRegistryLeaderInitiator} in three JVMs, on Locksmith's lock registry
 * and a real Redis: exactly one JVM is granted the leadership and keeps it, and after it is killed with
 * {@code kill -9}, exactly one of the other two.
 */
@Tag("slow")
class LockRegistryLeaderInitiatorProcessTests {

	/** How long exactly one leader must hold without a break: several leases and heart beats. */
	private static final Duration STEADY = LeaderWorker.TTL.multipliedBy(2);

	private LeaderFleet fleet;

	private LeadershipChecker checker;

	@BeforeEach
	void start() {
		this.fleet = LeaderFleet.start(3, "initiator");
		this.checker = this.fleet.checker();
	}

	@AfterEach
	void stop() {
		this.fleet.close();
	}

	@Test
	void exactlyOneOfThreeJvmsLeadsAndExactlyOneOfTheOthersOnceItIsKilled() {
		this.fleet.await("exactly one JVM granted, for " + STEADY, LeaderFleet.STARTUP, STEADY,
				() -> this.checker.granted().size() == 1);
		String first = this.checker.granted().iterator().next();

		this.fleet.of(Long.parseLong(first)).kill();
		this.checker.revoked(Long.parseLong(first));

		this.fleet.await("exactly one other JVM granted, for " + STEADY, LeaderWorker.TTL.multipliedBy(10), STEADY,
				() -> this.checker.granted().size() == 1);
		Set<String> granted = this.checker.granted();
		assertThat(granted).hasSize(1).doesNotContain(first);
		assertThat(this.checker.count("two-leaders")).as("grants while another JVM was leader").isZero();
		System.out.printf("[initiator] grants: %d (2 when no leader stepped down and was granted again)%n",
				this.checker.count("grants"));
	}

}
