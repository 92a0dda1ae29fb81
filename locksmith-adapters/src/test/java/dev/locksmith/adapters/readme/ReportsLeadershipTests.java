package dev.locksmith.adapters.readme;

import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.locksmith.adapters.LeaderApplications;
import dev.locksmith.adapters.RedisLockServices;
import dev.locksmith.leader.LeaderElection;
import dev.locksmith.leader.LeaderElections;
import dev.locksmith.leader.LeaderOnly;
import dev.locksmith.testing.RedisServerExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A {@link LeaderElection} declared as a bean, as the guide shows it, in two application instances: it
 * campaigns next to the configured roles, on its own lease, and its {@code @LeaderOnly} methods run on its
 * leader only; the election steps down when the application stops.
 */
class ReportsLeadershipTests {

	@RegisterExtension
	static final RedisServerExtension redisServer = new RedisServerExtension();

	private final RedisLockServices services = new RedisLockServices(redisServer.server());

	private final ApplicationContextRunner instance = LeaderApplications.on(this.services)
		.withPropertyValues("locksmith.leader.roles=cleanup")
		.withUserConfiguration(ReportsLeadership.class)
		.withBean(Reports.class);

	@AfterEach
	void close() throws Exception {
		this.services.close();
	}

	@Test
	void aDeclaredElectionLeadsItsRoleOnItsOwnLeaseAndRunsItsLeaderOnlyMethodsOnTheLeaderOnly() {
		this.instance.run((first) -> {
			LeaderElections elections = first.getBean(LeaderElections.class);
			assertThat(elections.roles()).containsExactlyInAnyOrder("reports", "cleanup");
			LeaderElection reports = elections.election("reports");
			assertThat(reports).isSameAs(first.getBean(LeaderElection.class));
			await().until(reports::isLeader);
			// a minute's lease, where the configured roles have locksmith.leader.ttl's 15 s
			assertThat(this.services.leaseMillis("leader:reports")).isGreaterThan(15_000).isLessThanOrEqualTo(60_000);
			first.getBean(Reports.class).run();
			assertThat(first.getBean(Reports.class).runs()).isEqualTo(1);

			this.instance.run((second) -> {
				second.getBean(Reports.class).run();
				assertThat(second.getBean(Reports.class).runs()).isZero();
				assertThat(second.getBean(LeaderElections.class).election("reports").isLeader()).isFalse();
			});
		});
		assertThat(redisServer.server().command("EXISTS", "lock:{leader:reports}")).isEqualTo("0");
	}

	/** A report that only the leader of {@code reports} runs; read through its methods, the bean is a proxy. */
	static class Reports {

		private final AtomicInteger runs = new AtomicInteger();

		@LeaderOnly(role = "reports")
		public void run() {
			this.runs.incrementAndGet();
		}

		public int runs() {
			return this.runs.get();
		}

	}

}
