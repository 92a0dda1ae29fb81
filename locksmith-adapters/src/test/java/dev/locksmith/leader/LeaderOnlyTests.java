package dev.locksmith.leader;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;

import dev.locksmith.adapters.LeaderApplications;
import dev.locksmith.adapters.RedisLockServices;
import dev.locksmith.testing.RedisServerExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code locksmith.leader.roles} and {@code @LeaderOnly} in two application instances: the method runs on
 * the leader only, and mistakes in its declaration stop the startup.
 */
class LeaderOnlyTests {

	@RegisterExtension
	static final RedisServerExtension redisServer = new RedisServerExtension();

	private final RedisLockServices services = new RedisLockServices(redisServer.server());

	private final ApplicationContextRunner instance = LeaderApplications.on(this.services)
		.withPropertyValues("locksmith.leader.roles=cleanup");

	@AfterEach
	void close() throws Exception {
		this.services.close();
	}

	@Test
	void aLeaderOnlyMethodRunsOnTheLeaderAndIsSkippedOnTheOtherInstance() {
		this.instance.withUserConfiguration(CleanupJob.class).run((first) -> {
			LeaderElection election = first.getBean(LeaderElections.class).election("cleanup");
			await().until(() -> election.isLeader() && !first.getBean(Cleanup.class).granted().isEmpty());
			first.getBean(Cleanup.class).run();
			assertThat(first.getBean(Cleanup.class).runs()).isEqualTo(1);
			assertThat(first.getBean(Cleanup.class).granted())
				.containsExactly(new LeaderGrantedEvent("cleanup", election.fencingToken().getAsLong()));

			this.instance.withUserConfiguration(CleanupJob.class).run((second) -> {
				second.getBean(Cleanup.class).run();
				assertThat(second.getBean(Cleanup.class).runs()).isZero();
				assertThat(second.getBean(LeaderElections.class).election("cleanup").isLeader()).isFalse();
			});
		});
	}

	@Test
	void aLeaderOnlyMethodThatReturnsAValueStopsTheStartup() {
		this.instance.withBean(Counting.class).run((context) -> assertThat(context).hasFailed()
			.getFailure()
			.rootCause()
			.hasMessageContaining("Counting.count() must return void"));
	}

	@Test
	void aLeaderOnlyMethodOfARoleWithoutElectionStopsTheStartup() {
		this.instance.withBean(Unelected.class).run((context) -> assertThat(context).hasFailed()
			.getFailure()
			.rootCause()
			.hasMessageContaining("names role 'reports', which has no election"));
	}

	@Configuration(proxyBeanMethods = false)
	static class CleanupJob {

		@Bean
		Cleanup cleanup() {
			return new Cleanup();
		}

	}

	/** Read through its methods: the bean is a subclass proxy, whose own fields are empty. */
	static class Cleanup {

		private final AtomicInteger runs = new AtomicInteger();

		private final Queue<LeaderGrantedEvent> granted = new ConcurrentLinkedQueue<>();

		@LeaderOnly(role = "cleanup")
		public void run() {
			this.runs.incrementAndGet();
		}

		@EventListener
		public void granted(LeaderGrantedEvent event) {
			this.granted.add(event);
		}

		public int runs() {
			return this.runs.get();
		}

		public Queue<LeaderGrantedEvent> granted() {
			return this.granted;
		}

	}

	static class Counting {

		@LeaderOnly(role = "cleanup")
		public int count() {
			return 1;
		}

	}

	static class Unelected {

		@LeaderOnly(role = "reports")
		public void report() {
		}

	}

}
