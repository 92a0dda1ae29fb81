package dev.locksmith.leader;

import java.time.Duration;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.event.EventListener;

import dev.locksmith.adapters.LeaderApplications;
import dev.locksmith.testing.RedisServer;
import dev.locksmith.testing.RedisServerExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A leader's application shuts down gracefully while another instance waits for the role: the release
 * hands the lock to the waiting instance under a claim lease, and that instance leads once, on one token.
 */
class GracefulHandOverTests {

	@RegisterExtension
	static final RedisServerExtension redisServer = new RedisServerExtension();

	// the default lease of 15 s: its margin, a quarter, is longer than the 2 s claim lease of a hand-over
	private final ApplicationContextRunner instance = LeaderApplications.onRedis(redisServer.server())
		.withPropertyValues("locksmith.leader.roles=cleanup")
		.withBean(LeadershipEvents.class);

	@Test
	void theInstanceThatAGracefulShutdownHandsTheLeadershipToIsGrantedItOnceAndNeverRevoked() {
		this.instance.run((first) -> {
			LeaderElection leading = first.getBean(LeaderElections.class).election("cleanup");
			await().atMost(Duration.ofSeconds(20)).until(leading::isLeader);
			long firstToken = leading.fencingToken().getAsLong();
			this.instance.run((second) -> {
				LeaderElection waiting = second.getBean(LeaderElections.class).election("cleanup");
				awaitQueuedAndToldOfReleases(redisServer.server());

				first.close();

				await().atMost(Duration.ofSeconds(20)).until(waiting::isLeader);
				long token = waiting.fencingToken().getAsLong();
				assertThat(token).isGreaterThan(firstToken);
				assertThat(second.getBean(LeadershipEvents.class).events)
					.containsExactly(new LeaderGrantedEvent("cleanup", token));
			});
		});
	}

	/** Waits until an instance waits in the queue of {@code leader:cleanup} and is subscribed to its releases. */
	private static void awaitQueuedAndToldOfReleases(RedisServer redis) {
		await().atMost(Duration.ofSeconds(20))
			.until(() -> redis.command("EXISTS", "lock:queue:{leader:cleanup}").equals("1")
					&& redis.subscribers("lock:released:{leader:cleanup}") > 0);
	}

	/** The leadership events of one instance, in order. */
	static class LeadershipEvents {

		final Queue<Object> events = new ConcurrentLinkedQueue<>();

		@EventListener
		void granted(LeaderGrantedEvent event) {
			this.events.add(event);
		}

		@EventListener
		void revoked(LeaderRevokedEvent event) {
			this.events.add(event);
		}

	}

}
